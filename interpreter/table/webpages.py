"""The HTML, CSS and JavaScript of the web table (Jinja templates as strings: nothing to build).

Escaping cannot be got wrong here: the environment auto-escapes every value (`environment()`), no page
holds inline script or style (the Content-Security-Policy forbids both), and no request value is placed
in a script or an event-handler attribute: the script (`SCRIPT`, served as a file) reads what it needs
from `data-` attributes, which are escaped like any other. The SVG of `svg` is escaped where it is made.
Every form that changes something carries the browser's CSRF token (`csrf`).
"""
from __future__ import annotations

STYLE = """
body { font-family: sans-serif; margin: 1em; background: #faf7f0; color: #222; }
section.area { border: 1px solid #bba; border-radius: 8px; padding: .5em 1em; margin: .6em 0; background: #fff; }
section.own { border: 3px solid #6a8; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin: .2em 0; } h3 { font-size: .95em; margin: .5em 0 .2em; }
ul.counters { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .3em 1.2em; }
ul.counters b { font-weight: 600; }
.menu button { display: block; margin: 3px 0; padding: 5px 10px; text-align: left; min-width: 20em; cursor: pointer; }
.menu .group { margin: .4em 0; padding-left: .6em; border-left: 3px solid #ccb; }
.layout { display: flex; gap: 1em; align-items: flex-start; }
.side { width: 30em; position: sticky; top: 0; max-height: 100vh; overflow-y: auto; }
.log { max-height: 22em; overflow-y: auto; font-size: .85em; background: #fff; border: 1px solid #ccc; padding: .3em; }
.status { font-weight: bold; background: #eef; padding: .4em; border-radius: 5px; }
.pass { text-align: center; margin-top: 20vh; font-size: 1.5em; }
.error { color: #900; white-space: pre-wrap; }
.secret { font-family: monospace; background: #fff; border: 1px dashed #aaa; padding: .2em .4em; word-break: break-all; }
form.inline { display: inline; }
nav a { margin-right: 1em; }
"""

# The page's script: the log scrolled to its end, the lobby's game menu, and the page kept up to date:
# it listens to the table's events (`data-events`, Server-Sent Events; without EventSource it asks
# `data-poll` for the version) and takes the new page in when the version changed.
SCRIPT = """
"use strict";
(function () {
  function scrollLog() {
    var log = document.getElementById("log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  var updates = 0;
  // The page as the server makes it now, taken in without a reload (the form being filled is kept out
  // of it: only the part of the page below the navigation is replaced).
  function swap() {
    fetch(location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("page"), now = document.getElementById("page");
        if (!fresh || !now) { location.reload(); return; }
        now.replaceWith(document.importNode(fresh, true));
        document.body.dataset.version = doc.body.dataset.version || "";
        document.title = doc.title;
        updates += 1;
        document.body.dataset.updates = String(updates);
        scrollLog();
      });
  }
  function listen(body) {
    if (body.dataset.events && window.EventSource) {
      var source = new EventSource(body.dataset.events + "?v=" + encodeURIComponent(body.dataset.version));
      source.addEventListener("moved", function (e) {
        if (e.data !== document.body.dataset.version) { swap(); }
      });
    } else if (body.dataset.poll) {
      setInterval(function () {
        fetch(body.dataset.poll, {credentials: "same-origin"}).then(function (r) { return r.json(); })
          .then(function (d) { if (String(d.version) !== document.body.dataset.version) { swap(); } });
      }, 3000);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    scrollLog();
    var game = document.getElementById("game");
    if (game && game.dataset.lobby) {
      game.addEventListener("change", function () {
        location.search = "?lang=" + encodeURIComponent(game.dataset.lang) + "&game=" + encodeURIComponent(game.value);
      });
    }
    listen(document.body);
  });
})();
"""

BASE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title><meta name="csrf" content="{{ csrf }}">{% if refresh %}<meta http-equiv="refresh" content="{{ refresh }}">{% endif %}
<link rel="stylesheet" href="/static/meeple.css"><script src="/static/meeple.js"></script></head>
<body{% for k, v in (data or {}).items() %} data-{{ k }}="{{ v }}"{% endfor %}>
<nav><a href="/">{{ w.lobby }}</a><a href="/replay">{{ w.replay }}</a><a href="/verify">{{ w.verify }}</a><a href="/compare">{{ w.compare }}</a></nav>
<div id="page">{% block body %}{% endblock %}</div>
</body></html>"""

CSRF = """<input type="hidden" name="csrf" value="{{ csrf }}">"""
VERSION = """<input type="hidden" name="version" value="{{ page.version }}">"""

ERROR = """{% extends base %}{% block body %}
<h1>{{ heading }}</h1><p class="error" id="error">{{ message }}</p>
{% if back %}<p><a href="{{ back }}">{{ back_label }}</a></p>{% endif %}
{% endblock %}"""

LOBBY = """{% extends base %}{% block body %}
<h1>{{ w.lobby }}</h1>
<form method="get" action="/"><p>{{ w.game }}
<select name="game" id="game" data-lobby="1" data-lang="{{ lang }}">{% for g in games %}<option value="{{ g.id }}"{% if g.id == game %} selected{% endif %}>{{ g.name }}</option>{% endfor %}</select>
<input type="hidden" name="lang" value="{{ lang }}"><button type="submit" id="choose">→</button></p></form>
<form method="post" action="/new" id="lobby">""" + CSRF + """
<input type="hidden" name="game" value="{{ game }}">
<p>{{ w.players }} <input name="players" id="players" type="number" value="{{ players }}" min="1" max="8">
{{ w.seed }} <input name="seed" id="seed" type="text" inputmode="numeric" value="" placeholder="{{ w.random_seed }}">
{{ w.language }} <select name="lang">{% for code in langs %}<option value="{{ code }}"{% if code == lang %} selected{% endif %}>{{ code }}</option>{% endfor %}</select></p>
<p>{{ w.variants }}: {% for v in variants %}<label><input type="checkbox" name="variant" value="{{ v }}"> {{ v }}</label> {% else %}-{% endfor %}</p>
{% if options %}<p>{{ w.options }}:</p><ul>{% for name, o in options.items() %}<li><label>{{ o.label.get(lang) or o.label.get('en') or name }}
{% if o['values'] %}<select name="opt.{{ name }}">{% for v in o['values'] %}<option value="{{ v }}"{% if v == o.default %} selected{% endif %}>{{ v }}</option>{% endfor %}</select>
{% else %}<input name="opt.{{ name }}" value="{{ o.default }}" size="8">{% endif %}</label></li>{% endfor %}</ul>{% endif %}
{% for s in range(max_players) %}<p class="seat">{{ w.seat }} {{ s + 1 }}:
<select name="seat{{ s + 1 }}" id="seat{{ s + 1 }}">{% for k in kinds %}<option value="{{ k }}"{% if (s == 0 and k == 'human') or (s > 0 and k == 'random') %} selected{% endif %}>{{ w.human if k == 'human' else w.bot + ' ' + k }}</option>{% endfor %}</select></p>{% endfor %}
<p><label><input type="checkbox" name="sit" value="1" checked> {{ w.i_sit }}</label>
<label><input type="checkbox" name="hot" value="1"> {{ w.hot_seat }}</label>
<label><input type="checkbox" name="public" value="1"> {{ w.public }}</label></p>
<p><button type="submit" id="start">{{ w.start }}</button></p>
</form>
{% if tables %}<h2>{{ w.tables }}</h2><ul>{% for t in tables %}<li><a href="/t/{{ t.id }}">{{ t.title }}</a> — {{ t.players }} {{ w.players }}, {{ t.free }} {{ w.free_seats }}</li>{% endfor %}</ul>{% endif %}
{% endblock %}"""

CREATOR = """{% extends base %}{% block body %}
<h1>{{ title }}</h1>
<p>{% if over %}{{ w.seed }} {{ seed }}{% endif %}{% if public %} · {{ w.public }}{% endif %}</p>
<h2>{{ w.seats }}</h2>
<ul>{% for s in seats %}<li class="seat-row" data-seat="{{ s.seat }}">{{ s.name }} — {{ s.kind }}{% if s.mine %} ({{ w.you }}){% endif %}
{% if s.invite %}<br>{{ w.invite }}: <a class="invite" href="{{ s.invite }}">{{ host_url }}{{ s.invite }}</a>{% endif %}
{% if s.human and not s.invite %}<form class="inline" method="post" action="/t/{{ tid }}/reinvite">""" + CSRF + """<input type="hidden" name="seat" value="{{ s.seat }}"><button type="submit">{{ w.new_invite }}</button></form>{% endif %}
</li>{% endfor %}</ul>
{% if my_seat is not none %}<p><a href="/t/{{ tid }}/play" id="play">{{ w.to_my_seat }}</a></p>{% endif %}
<p>{{ w.creator_link }}: <span class="secret" id="creator-link">{{ host_url }}{{ creator_link }}</span></p>
{% if over %}<p><a href="/t/{{ tid }}/record" id="record">{{ w.record }}</a></p>{% endif %}
{% endblock %}"""

VISITOR = """{% extends base %}{% block body %}
<h1>{{ title }}</h1>
{% if free %}<p>{{ w.take_free_seat }}</p>{% for s in free %}<form class="inline" method="post" action="/t/{{ tid }}/sit">""" + CSRF + """<input type="hidden" name="seat" value="{{ s.seat }}"><button type="submit" class="sit">{{ s.name }}</button></form> {% endfor %}
{% else %}<p id="no-seat">{{ w.no_seat }}</p>{% endif %}
{% if record_url %}<p><a href="{{ record_url }}" id="record">{{ w.record }}</a></p>{% endif %}
{% endblock %}"""

JOIN = """{% extends base %}{% block body %}
<h1>{{ title }}</h1>
<form method="post" action="{{ url }}">""" + CSRF + """<button type="submit" id="take">{{ take }}</button></form>
{% endblock %}"""

PASS = """{% extends base %}{% block body %}
<div class="pass"><p>{{ message }}</p>
<form method="post" action="{{ url }}">""" + CSRF + """<button type="submit" id="ready">{{ ready }}</button></form></div>
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
<p id="seed">{{ w.seed }} {{ seed }}</p>
{% if record_url %}<p><a href="{{ record_url }}" id="record">{{ w.record }}</a></p>{% endif %}</section>{% endif %}
{% for a in page.model.areas %}{{ area(a) }}{% endfor %}
</div><div class="side">
{% if page.menu %}<form method="post" action="{{ act_url }}" class="menu" id="menu">""" + CSRF + VERSION + """<h2>{{ page.step }}</h2>
{% for m in page.menu %}{% if m.group and (loop.first or page.menu[loop.index0 - 1].group != m.group) %}<div class="group"><i>{{ m.group }}</i>{% endif %}
<button type="submit" name="number" value="{{ m.number }}" class="choice">{{ m.number }}) {{ m.label }}</button>
{% if m.group and (loop.last or page.menu[loop.index0 + 1].group != m.group) %}</div>{% endif %}{% endfor %}
</form>{% elif not page.over %}<p id="waiting">{{ waiting }}</p>{% endif %}
{% if page.can_undo and not page.over %}<form method="post" action="{{ undo_url }}">""" + CSRF + VERSION + """<button type="submit" id="undo">{{ w.undo }}</button></form>{% endif %}
<h2>{{ w.log }}</h2><div class="log" id="log">{% for line in page.log %}<div>{{ line }}</div>{% endfor %}</div>
</div></div>
{% endblock %}"""

REPLAY_FORM = """{% extends base %}{% block body %}
<h1>{{ w.replay }}</h1>
<form method="post" action="/replay" enctype="multipart/form-data">""" + CSRF + """
<p><input type="file" name="file"></p><p><textarea name="text" rows="12" cols="90" placeholder="format: meeple-record/N ..."></textarea></p>
<p><button type="submit">{{ w.replay }}</button></p></form>
{% if error %}<pre class="error" id="error">{{ error }}</pre>{% endif %}
{% endblock %}"""

REPLAY = AREA + """{% extends base %}{% block body %}
<h1>{{ model.title }} — {{ w.replay }} {{ step }}/{{ total }}</h1>
<p><a href="?step={{ [step - 1, 0]|max }}&amp;seat={{ seat }}" id="back">◀ {{ w.back }}</a>
<a href="?step={{ [step + 1, total]|min }}&amp;seat={{ seat }}" id="forward">{{ w.forward }} ▶</a>
{% for s in range(players) %}<a href="?step={{ step }}&amp;seat={{ s + 1 }}">{{ seat_names[s] }}</a> {% endfor %}</p>
{% if last %}<p class="status">{{ last }}</p>{% endif %}
<ul>{% for line in told %}<li>{{ line }}</li>{% endfor %}</ul>
<p class="status">{{ model.status.line }}</p>
{% if model.outcome %}<p id="winner">{{ model.outcome.line }}</p>{% endif %}
{% for a in model.areas %}{{ area(a) }}{% endfor %}
{% endblock %}"""

REPORT = """{% extends base %}{% block body %}
<h1>{{ heading }}</h1>
<form method="get" action="/{{ kind }}"><p>{{ w.game }} <select name="game">{% for g in games %}<option value="{{ g.id }}"{% if g.id == game %} selected{% endif %}>{{ g.name }}</option>{% endfor %}</select>
<button type="submit" id="choose">→</button></p></form>
<form method="post" action="/{{ kind }}">""" + CSRF + """<input type="hidden" name="game" value="{{ game }}"><p>
{% for f in fields %}{{ f.label }} {% if f.choices is defined %}<select name="{{ f.name }}">{% for c in f.choices %}<option value="{{ c }}"{% if c == f.value %} selected{% endif %}>{{ c }}</option>{% endfor %}</select>{% else %}<input name="{{ f.name }}" value="{{ f.value }}" size="{{ f.get('size') or 6 }}">{% endif %} {% endfor %}
<button type="submit" id="run">{{ heading }}</button></p></form>
{% if error %}<p class="error" id="error">{{ error }}</p>{% endif %}
{% endblock %}"""

JOB = """{% extends base %}{% block body %}
<h1>{{ title }}{% if game %} — {{ game }}{% endif %}</h1>
<p id="state">{{ job.state }}{% if job.state in ('waiting', 'running') %} ({{ job.done }}/{{ job.total }}){% endif %}</p>
{% if error %}<p class="error" id="error">{{ error }}</p>{% endif %}
{% if image %}<img alt="{{ title }}" src="data:image/png;base64,{{ image }}">{% endif %}
{% if report %}<pre id="report">{{ report }}</pre>{% endif %}
{% endblock %}"""


def environment():
    """The pages' Jinja environment: every value auto-escaped (`|safe` only for the SVG of `svg`)."""
    from jinja2 import Environment

    return Environment(autoescape=True)
