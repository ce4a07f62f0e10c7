"""What a server is started for: the host names requests may be addressed to, and the limits, each named
and each in the README's table with its default."""
from pathlib import Path

from interpreter.table.webconfig import LIMITS, ServerConfig


def test_host_names_follow_the_address_listened_on():
    assert ServerConfig().hostnames() == {"127.0.0.1", "localhost", "::1"}
    assert ServerConfig(host="0.0.0.0").hostnames() == {"127.0.0.1", "localhost", "::1"}
    assert ServerConfig(host="0.0.0.0", allowed_hosts=("Games.LAN",)).hostnames() >= {"games.lan"}
    assert "192.168.1.5" in ServerConfig(host="192.168.1.5").hostnames()


def test_every_limit_is_in_the_readmes_table_with_its_default():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    config = ServerConfig()
    for what, name, how in LIMITS:
        value = getattr(config, name)
        value = int(value) if isinstance(value, float) and value == int(value) else value
        assert f"| {what} | {how.format(value)} | `{name}` |" in readme, name
    assert {name for _, name, _ in LIMITS} >= {f for f in vars(config) if f.startswith(("max_", "job_"))}
