"""Golden files of the table: pictures as text (terminal and web page) and screenshots.

    check_text(path, text)          # the text as on file
    check_screenshot(path, png)     # a browser's screenshot (PNG bytes) like the reference, within tolerance

A golden file that is missing is written and the test fails (once: the next run compares with it; review
the new file and commit it). With `MEEPLE_REGEN_GOLDEN=1` exactly, and never when `CI` is set, every golden
file is written again and the check passes: do that only after an intended change, and review the diff.

Screenshots are compared, not matched byte for byte. Both the reference and the screenshot are reduced to
half size in grey levels (each pixel the mean of a 2×2 block; the reference is stored that way, which
also keeps it small). A pixel differs when its grey level moves by more than PIXEL_TOLERANCE of 255; the
check fails when the sizes differ (the page grew or shrank: something was added, lost or laid out
again) or when more than AREA_TOLERANCE of the pixels differ. On one machine with one Chromium the
same page renders the same pixels, so any tolerance passes there; the margin is for a Chromium or font
update, which moves anti-aliased glyph edges by a few levels on a small share of pixels. A regression the
text goldens do not see — a board or track not drawn, a section hidden by a style, colours lost, text
drawn over text — changes whole areas: far more than 1 in 200 pixels. A changed word or number is the
text golden's to catch. On a failure the screenshot and a picture of the differing pixels are written
beside the test's screenshots (`MEEPLE_SCREENSHOTS`, else the test's temporary folder).
"""
from __future__ import annotations

import io
import os
from pathlib import Path

PIXEL_TOLERANCE = 64          # grey levels (of 255) a pixel may move
AREA_TOLERANCE = 0.005        # the share of pixels that may move more than that


def regenerate(env=None) -> bool:
    """Write the goldens again only when asked exactly (`MEEPLE_REGEN_GOLDEN=1`), and never in CI."""
    env = os.environ if env is None else env
    return env.get("MEEPLE_REGEN_GOLDEN") == "1" and not env.get("CI")


def check_text(path: Path, text: str) -> None:
    text = text.rstrip("\n") + "\n"
    if regenerate():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        raise AssertionError(f"no golden file {path.name}: written now; review it, commit it and run again")
    assert text == path.read_text(encoding="utf-8"), \
        f"{path.name} changed (after an intended change: MEEPLE_REGEN_GOLDEN=1 and review the diff)"


def reduced(png: bytes):
    """A screenshot as compared and stored: grey levels at half size."""
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("L").reduce(2)


def difference(reference, image) -> tuple[float, str]:
    """The share of pixels that differ beyond PIXEL_TOLERANCE (1.0 when the sizes differ), and a
    sentence telling it."""
    from PIL import ImageChops

    if reference.size != image.size:
        return 1.0, f"size {image.size[0]}×{image.size[1]}, the reference is {reference.size[0]}×{reference.size[1]}"
    histogram = ImageChops.difference(reference, image).histogram()
    moved = sum(histogram[PIXEL_TOLERANCE + 1:])
    share = moved / (image.size[0] * image.size[1])
    return share, f"{moved} pixels ({share:.3%}) differ by more than {PIXEL_TOLERANCE} grey levels"


def check_screenshot(path: Path, png: bytes, shots: Path) -> None:
    from PIL import Image, ImageChops

    image = reduced(png)
    if regenerate():
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
        return
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
        raise AssertionError(f"no reference screenshot {path.name}: written now; look at it, commit it and run again")
    reference = Image.open(path).convert("L")
    share, told = difference(reference, image)
    if share > AREA_TOLERANCE:
        shots.mkdir(parents=True, exist_ok=True)
        image.save(shots / f"{path.stem}.got.png")
        if reference.size == image.size:
            ImageChops.difference(reference, image).point(lambda v: 255 if v > PIXEL_TOLERANCE else 0).save(
                shots / f"{path.stem}.diff.png")
        raise AssertionError(f"{path.name}: {told} (allowed: {AREA_TOLERANCE:.1%}); the screenshot is in {shots}")
