"""The recipes of docs/recipes.md work as written: each is a small game here, played by its rules."""

from __future__ import annotations

from games import make_game


def test_turn_order_by_a_rule_the_player_furthest_behind_first(tmp_path):
    g = make_game(tmp_path, """
        game: {id: order, players: [3]}
        tables: {start_vp: [3, 2, 1]}
        vars:
          global: {turns: {}}
          player: {vp: {init: "start_vp[player]"}}
        steps:
          turn: {actions: {go: {effect: "turns += 1"}}}
        flow:
          repeat:
            each_player: {step: turn}
            order: "sort_by(p.vp for p in players)"
          until: "turns >= 3"
    """)
    s = g.new_game(3)
    seen = []
    while not g.is_over(s):
        seen.append(g.current_player(s))
        s = g.apply(s, "go")
    assert seen == [2, 1, 0]


def test_the_taker_acts_again(tmp_path):
    g = make_game(tmp_path, """
        game: {id: again, players: [2]}
        vars:
          global: {again: {type: bool}, top_value: {}}
        zones:
          global: {table: {}}
          player: {hand: {}}
        components:
          card:
            zone: hand
            properties: {value: 0}
            types:
              low: {value: 1}
              high: {value: 9}
        steps:
          play:
            actions:
              play:
                choose: {c: player.hand}
                effect: |
                  move(c, table)
                  again = c.value > top_value
                  top_value = max(top_value, c.value)
        flow:
          each_player:
            - effect: "again = true"
            - repeat: {step: play}
              while: again
              max: 50
    """)
    s = g.new_game(2)
    high, low = (next(a["id"] for a in g.legal_actions(s) if g.evaluate(s, f"pieces[{a['args']['c']}].value") == v)
                 for v in (9, 1))
    s = g.apply(s, high)               # the 9 beats 0: player 1 goes again
    assert g.current_player(s) == 0
    s = g.apply(s, low)                # the 1 does not beat 9: the turn passes
    assert g.current_player(s) == 1


def test_an_auction_the_last_bidder_left_wins(tmp_path):
    g = make_game(tmp_path, """
        game: {id: auction, players: [3]}
        vars:
          global: {high_bid: {}, high_bidder: {type: player}, auctioneer: {type: player, init: 0}}
          player: {coins: {init: 5}}
        steps:
          bid:
            optional: true
            actions:
              raise:
                choose: {n: "range(high_bid + 1, player.coins + 1)"}
                effect: "high_bid = n\\nhigh_bidder = player"
        flow:
          - effect: "high_bid = 0\\nhigh_bidder = none"
          - each_player: {step: bid}
            from: auctioneer
            until: one_left
          - effect: "high_bidder.coins -= high_bid"
    """)
    s = g.new_game(3)
    for a in ["raise(n=1)", "raise(n=2)", "pass", "raise(n=3)", "pass"]:
        s = g.apply(s, a)
    assert g.is_over(s)
    assert g.evaluate(s, "players[0].coins") == 2


def test_set_collection_scores(tmp_path):
    g = make_game(tmp_path, """
        game: {id: sets, players: [2]}
        kinds: {suit: {values: [red, blue]}}
        zones:
          player: {row: {}}
        components:
          card:
            zone: row
            properties: {suit: red, number: 0}
            types:
              card: {numbered: {from: 1, to: 3}, suit: red}
              blue_card: {suit: blue, number: 7}
        flow: []
        scoring:
          items:
            sets: {expr: "min(count(x for x in player.row if x.suit == k) for k in suit)"}
            runs: {expr: "2 * count(x for x in player.row if any(y.number == x.number + 1 for y in player.row))"}
    """)
    s = g.new_game(2)
    assert g.score_breakdown(s)[0] == {"sets": 1, "runs": 4}


def test_hints_about_cards_their_holder_cannot_see(tmp_path):
    g = make_game(tmp_path, """
        game: {id: hints, players: [2]}
        zones:
          global: {deck: {visibility: hidden}}
          player: {hand: {visibility: others}}
        components:
          card:
            zone: deck
            properties: {number: 0}
            types: {card: {numbered: {from: 1, to: 4}}}
        setup: |
          for p in players:
              draw(deck, p.hand)
              draw(deck, p.hand)
        steps:
          hint:
            actions:
              tell_number:
                choose: {n: "range(1, 5)"}
                effect: |
                  for c in players[1].hand:
                      tell(players[1], c, 'number', n)
        flow: {step: hint}
    """)
    s = g.apply(g.new_game(2), "tell_number(n=3)")  # the second player holds cards 3 and 4, in that order
    known = g.view(s, 1)["known"]
    assert [e["facts"]["number"] for e in known] == [{"is": 3}, {"not": [3]}]
    assert g.evaluate(s, "knows(players[1], players[1].hand[0], 'number')")
    assert not g.evaluate(s, "knows(players[1], players[1].hand[1], 'number')")


def test_a_deck_builders_piles_remake_the_deck_from_the_discard_pile(tmp_path):
    g = make_game(tmp_path, """
        game: {id: piles, players: [2]}
        zones:
          player:
            deck: {visibility: contents}
            hand: {visibility: owner}
            discard: {visibility: top}
        components:
          card: {zone: deck, types: {copper: {count: 3}}}
        procedures:
          "draw_one(p: player)": |
            if size(p.deck) == 0:
                for c in p.discard:
                    move(c, p.deck)
                shuffle(p.deck)
            if size(p.deck) > 0:
                draw(p.deck, p.hand)
        setup: |
          for p in players:
              for c in p.deck:
                  move(c, p.discard, 0)
              draw_one(p)
        flow: []
    """)
    s = g.new_game(2)
    view = g.view(s, 1)["player_zones"][0]
    assert view["hand"] == {"hidden": 1} and view["deck"]["hidden"] == 2 and len(view["deck"]["seen"]) == 2
    assert view["discard"] == []


def test_a_grid_per_player_scores_its_regions(tmp_path):
    g = make_game(tmp_path, """
        game: {id: grid, players: [2]}
        kinds: {terrain: {values: [wheat, lake]}}
        zones:
          global: {bag: {}}
          player: {kingdom: {}}
          piece: {spot: {of: plot, capacity: 1}}
        components:
          plot: {zone: kingdom, board: {layout: square, size: 2}, properties: {col: 0, row: 0}}
          tile:
            zone: bag
            properties: {terrain: none, crowns: 0}
            types: {wheat_tile: {count: 3, terrain: wheat, crowns: 1}, lake_tile: {count: 2, terrain: lake}}
        defs:
          "laid(sp)": "size(sp.spot) > 0"
          "terrain_of(sp)": "top(sp.spot).terrain if laid(sp) else none"
          "crowns_in(g)": "sum(top(q.spot).crowns for q in g)"
          "terrain_score(p, k)": "sum(len(g) * crowns_in(g) for g in groups(p.kingdom, where t: terrain_of(t) == k))"
        setup: |
          for sp in players[0].kingdom:
              if sp.row == 1:
                  move(first(t for t in bag if t.terrain == wheat), sp.spot)
        flow: []
        display:
          zones:
            kingdom: {as: board, content: spot, symbol: terrain, number: crowns}
    """)
    s = g.new_game(2)
    assert g.evaluate(s, "terrain_score(players[0], wheat)") == 4 and g.evaluate(s, "terrain_score(players[1], wheat)") == 0
