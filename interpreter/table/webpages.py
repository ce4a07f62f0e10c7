"""The HTML of the web table (Jinja templates as strings: nothing to build, nothing to install beside
Flask). Every text is escaped by Jinja; the SVG of `svg` is escaped where it is made."""
from __future__ import annotations

BASE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font-family: sans-serif; margin: 1em; background: #faf7f0; color: #222; }
section.area { border: 1px solid #bba; border-radius: 8px; padding: .5em 1em; margin: .6em 0; background: #fff; }
section.own { border: 3px solid #6a8; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin: .2em 0; } h3 { font-size: .95em; margin: .5em 0 .2em; }
ul.counters { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .3em 1.2em; }
ul.counters b { font-weight: 600; }
.menu button { display: block; margin: 3px 0; padding: 5px 10px; text-align: left; min-width: 20em; cursor: pointer; }
.menu .group { margin: .4em 0; padding-left: .6em; border-left: 3px solid #ccb; }
.layout { display: flex; gap: 1em; align-items: flex-start; }
.side { width: 30em; position: sticky; top: 0; max-height: 100vh; overflow-y: auto; }  /* a long menu scrolls in place */
.log { max-height: 22em; overflow-y: auto; font-size: .85em; background: #fff; border: 1px solid #ccc; padding: .3em; }
.status { font-weight: bold; background: #eef; padding: .4em; border-radius: 5px; }
.pass { text-align: center; margin-top: 20vh; font-size: 1.5em; }
nav a { margin-right: 1em; }
</style></head><body>
<nav><a href="/">{{ w.lobby }}</a><a href="/replay">{{ w.replay }}</a><a href="/verify">{{ w.verify }}</a><a href="/compare">{{ w.compare }}</a></nav>
{% block body %}{% endblock %}
</body></html>"""

LOBBY = """{% extends base %}{% block body %}
<h1>{{ w.lobby }}</h1>
<form method="post" action="/new" id="lobby">
<p>{{ w.game }} <select name="game" id="game" onchange="location.search = '?lang={{ lang }}&game=' + this.value">{% for g in games %}<option value="{{ g.id }}"{% if g.id == game %} selected{% endif %}>{{ g.name }}</option>{% endfor %}</select>
{{ w.players }} <input name="players" id="players" type="number" value="{{ players }}" min="1" max="8">
{{ w.seed }} <input name="seed" type="number" value="{{ seed }}">
{{ w.language }} <select name="lang"><option value="en">English</option><option value="zh"{% if lang == 'zh' %} selected{% endif %}>中文</option></select></p>
<p>{{ w.variants }}: {% for v in variants %}<label title="{{ v }}"><input type="checkbox" name="variant" value="{{ v }}"> {{ variant_names[v] }}</label> {% else %}-{% endfor %}</p>
<p>{{ w.options }} (NAME=VALUE): <input name="options" size="50" value=""></p>
{% for s in range(max_players) %}<p class="seat">{{ w.seat }} {{ s + 1 }}:
<select name="seat{{ s + 1 }}" id="seat{{ s + 1 }}">{% for k in kinds %}<option value="{{ k }}"{% if (s == 0 and k == 'human') or (s > 0 and k == 'random') %} selected{% endif %}>{{ w.human if k == 'human' else w.bot + ' ' + k }}</option>{% endfor %}</select></p>{% endfor %}
<p><label><input type="checkbox" name="hot" value="1"> {{ w.hot_seat }}</label></p>
<p><button type="submit" id="start">{{ w.start }}</button></p>
</form>
{% if tables %}<h2>{{ w.tables }}</h2><ul>{% for t in tables %}<li><a href="/t/{{ t.id }}">{{ t.title }} ({{ t.id }})</a></li>{% endfor %}</ul>{% endif %}
{% endblock %}"""

TABLE_INDEX = """{% extends base %}{% block body %}
<h1>{{ title }}</h1>
<ul>{% for seat, url in seats %}<li><a href="{{ url }}" target="_blank" class="seat-link">{{ seat }}</a></li>{% endfor %}</ul>
{% if over %}<p><a href="/t/{{ tid }}/record">{{ w.record }}</a></p>{% endif %}
{% endblock %}"""

PASS = """{% extends base %}{% block body %}
<div class="pass"><p>{{ message }}</p>
<form method="get" action="{{ url }}"><button type="submit" id="ready">{{ ready }}</button></form></div>
{% endblock %}"""

AREA = """{% macro area(a) %}<section class="area {{ a.kind }}" id="{{ a.id }}"><h2>{{ a.title }}</h2>
<ul class="counters">{% for c in a.counters %}<li><b>{{ c.label }}</b> {{ c.text }}</li>{% endfor %}</ul>
{% for t in a.tracks %}<h3>{{ t.label }}</h3>{{ svg.track(t)|safe }}{% endfor %}
{% for z in a.zones %}<h3>{{ z.label }} ({% if z.capacity is defined %}{{ z.used }}/{{ z.capacity }}{% else %}{{ z.count }}{% endif %})</h3>{{ svg.zone(z)|safe }}{% endfor %}
</section>{% endmacro %}"""

SEAT = AREA + """{% extends base %}{% block body %}
<h1>{{ page.model.title }} — {{ page.model.viewer_name }}</h1>
<p class="status" id="status">{{ page.model.status.line }}</p>
<div class="layout"><div class="main">
{% if page.model.outcome %}<section class="area own" id="outcome"><h2>{{ w.final_scores }}</h2><ul>
{% for r in page.model.outcome.rows %}<li>{{ r.name }}: {{ r.score }}{% if r.parts %} ({% for p in r.parts %}{{ p[0] }} {{ p[1] }}{% if not loop.last %}, {% endif %}{% endfor %}){% endif %}</li>{% endfor %}</ul>
{% if page.model.outcome.ends %}<p>{{ ended }}</p>{% endif %}<p id="winner">{{ page.model.outcome.line }}</p>
{% if record_url %}<p><a href="{{ record_url }}" id="record">{{ w.record }}</a></p>{% endif %}</section>{% endif %}
{% for a in page.model.areas %}{{ area(a) }}{% endfor %}
</div><div class="side">
{% if page.menu %}<form method="post" action="{{ act_url }}" class="menu" id="menu"><h2>{{ page.step }}</h2>
{% for m in page.menu %}{% if m.group and (loop.first or page.menu[loop.index0 - 1].group != m.group) %}<div class="group"><i>{{ m.group }}</i>{% endif %}
<button type="submit" name="number" value="{{ m.number }}" class="choice">{{ m.number }}) {{ m.label }}</button>
{% if m.group and (loop.last or page.menu[loop.index0 + 1].group != m.group) %}</div>{% endif %}{% endfor %}
</form>{% elif not page.over %}<p id="waiting">{{ waiting }}</p>{% endif %}
{% if page.can_undo and not page.over %}<form method="post" action="{{ undo_url }}"><button type="submit" id="undo">{{ w.undo }}</button></form>{% endif %}
<h2>{{ w.log }}</h2><div class="log" id="log">{% for line in page.log %}<div>{{ line }}</div>{% endfor %}</div>
</div></div>
<script>const log = document.getElementById("log"); log.scrollTop = log.scrollHeight;  // the newest at sight</script>
{% if poll_url %}<script>
const version = {{ page.version }};
setInterval(() => fetch("{{ poll_url }}").then(r => r.json()).then(d => { if (d.version !== version) location.reload(); }), 1500);
</script>{% endif %}
{% endblock %}"""

REPLAY_FORM = """{% extends base %}{% block body %}
<h1>{{ w.replay }}</h1>
<form method="post" action="/replay" enctype="multipart/form-data">
<p><input type="file" name="file"></p><p><textarea name="text" rows="12" cols="90" placeholder="format: meeple-record/N ..."></textarea></p>
<p><button type="submit">{{ w.replay }}</button></p></form>
{% if error %}<pre class="error">{{ error }}</pre>{% endif %}
{% endblock %}"""

REPLAY = AREA + """{% extends base %}{% block body %}
<h1>{{ model.title }} — {{ w.replay }} {{ step }}/{{ total }}</h1>
<p><a href="?step={{ [step - 1, 0]|max }}&seat={{ seat }}" id="back">◀ {{ w.back }}</a>
<a href="?step={{ [step + 1, total]|min }}&seat={{ seat }}" id="forward">{{ w.forward }} ▶</a>
{% for s in range(players) %}<a href="?step={{ step }}&seat={{ s + 1 }}">{{ seat_names[s] }}</a> {% endfor %}</p>
{% if last %}<p class="status">{{ last }}</p>{% endif %}
<ul>{% for line in told %}<li>{{ line }}</li>{% endfor %}</ul>
<p class="status">{{ model.status.line }}</p>
{% if model.outcome %}<p id="winner">{{ model.outcome.line }}</p>{% endif %}
{% for a in model.areas %}{{ area(a) }}{% endfor %}
{% endblock %}"""

REPORT = """{% extends base %}{% block body %}
<h1>{{ heading }}</h1>
<form method="get"><p>{{ w.game }} <select name="game">{% for g in games %}<option value="{{ g.id }}"{% if g.id == game %} selected{% endif %}>{{ g.name }}</option>{% endfor %}</select>
{% for f in fields %}{{ f.label }} <input name="{{ f.name }}" value="{{ f.value }}" size="{{ f.size or 6 }}"> {% endfor %}
<button type="submit" name="run" value="1">{{ heading }}</button></p></form>
{% if image %}<img alt="{{ heading }}" src="data:image/png;base64,{{ image }}">{% endif %}
{% if report %}<pre id="report">{{ report }}</pre>{% endif %}
{% endblock %}"""
