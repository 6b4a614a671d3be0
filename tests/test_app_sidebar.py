"""The sidebar: a new table size gets its usual deck; the sidebar's and each page's main choices
come back from the page's URL (a reload, a shared link)."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from fiftysix.cards import DEFAULT_DECK
from tests.app_harness import open_page, shown, texts


@pytest.mark.parametrize("players", [4, 8, 6])
def test_a_new_number_of_players_gets_its_usual_deck(tmp_path, monkeypatch, players):
    at = open_page("rules", tmp_path, monkeypatch)
    if players == 6:  # from 4 back to 6
        at.selectbox(key="players").set_value(4).run()
    at.selectbox(key="players").set_value(players).run()
    assert not at.exception
    # RULES.md 2: 32 cards for 4 players, 48 for 6, 64 for 8 (4 x 8, 6 x 8, 8 x 8)
    assert at.session_state["deck"] == DEFAULT_DECK[players] == {4: 32, 6: 48, 8: 64}[players]
    assert at.selectbox(key="deck").value == DEFAULT_DECK[players]


def test_a_chosen_deck_stays_while_other_settings_change(tmp_path, monkeypatch):
    at = open_page("rules", tmp_path, monkeypatch)
    at.selectbox(key="players").set_value(4).run()
    at.selectbox(key="deck").set_value(48).run()
    at.selectbox(key="system").set_value("kerala").run()
    assert at.session_state["deck"] == 48


def _open_link(tmp_path, monkeypatch, page: str, **params) -> AppTest:
    """Open the app as a reload or a shared link would: a fresh session with query parameters."""
    return open_page(page, tmp_path, monkeypatch, query=params)


def test_a_link_restores_the_sidebar(tmp_path, monkeypatch):
    # walked in Chromium: the URL kept the shown labels (deck=48+cards), so a hand-typed deck=48
    # was ignored; the sidebar now shows the values as the URL writes them
    at = _open_link(tmp_path, monkeypatch, "drill", system="kerala", players="4", deck="48",
                    teams="pairs", player="ravi")
    ss = at.session_state
    assert (ss["system"], ss["players"], ss["deck"], ss["teams"], ss["player"]) == (
        "kerala", 4, 48, "pairs", "ravi")
    assert "ravi:" in texts(at)  # the drill counts ravi's ideas, not the default player's


def test_answers_after_a_reload_go_to_the_player_in_the_link(tmp_path, monkeypatch):
    from fiftysix.drills.progress import ProgressStore
    at = _open_link(tmp_path, monkeypatch, "drill", player="ravi", dr_len="3", dr_types="meaning")
    assert at.select_slider(key="dr_len").value == 3 and at.multiselect(key="dr_types").value == ["meaning"]
    at.button(key="dr_go").click().run()
    q = at.session_state["dr_queue"][0]
    at.button(key="dr_pick_0").click().run()
    at.button(key="dr_answer").click().run()
    assert len(ProgressStore(tmp_path / "progress.sqlite3", learner="ravi").history()) == 1
    assert ProgressStore(tmp_path / "progress.sqlite3", learner="player").history().empty
    assert q.context.system == "international"


def test_a_bad_value_in_the_link_falls_back_to_the_default(tmp_path, monkeypatch):
    at = _open_link(tmp_path, monkeypatch, "rules", system="nonsense", players="5")
    assert at.session_state["system"] == "international" and at.session_state["players"] == 6


@pytest.mark.parametrize("page, params, key, value", [
    ("explain", {"ex_text": "28H P +1H"}, "ex_text", "28H P +1H"),
    ("rules", {"rules_system": "kerala"}, "rules_system", "kerala"),
    ("progress", {"pr_by": "bank"}, "pr_by", "source"),
    ("drill", {"dr_new": "25"}, "dr_new", 25),
    ("analyse", {"an_mode": "paste"}, "an_mode", "paste"),  # (a dealt hand would start the solver)
    ("review", {"rv_source": "Library"}, "rv_source", "Library"),
])
def test_each_page_main_input_comes_back_from_the_link(tmp_path, monkeypatch, page, params, key, value):
    if page == "progress":  # the page's charts need an answer on record
        from fiftysix.drills.progress import ProgressStore
        from tests.test_app_progress import _question
        monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
        q = _question("q1", "plus")
        ProgressStore(learner="player").record_answer(q, q.answer)
    at = _open_link(tmp_path, monkeypatch, page, **params)
    assert at.session_state[key] == value


def test_a_pasted_deal_comes_back_from_the_link(tmp_path, monkeypatch):
    """Issue 22 #2: the Analyse page's main input, a pasted deal, is in the URL (a reload, a link)."""
    from fiftysix.cards import Table, random_deal
    deal = str(random_deal(Table.make(4), seed=11))
    at = _open_link(tmp_path, monkeypatch, "analyse", players="4", an_mode="Paste", deal=deal)
    assert at.session_state["an_deal"] == deal
    assert at.query_params["deal"] == [deal] or at.query_params["deal"] == deal
    other = str(random_deal(Table.make(4), seed=12))
    at.text_area(key="an_paste").input(other)
    at.button(key="an_paste_btn").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["deal"] in ([other], other)  # the URL follows the deal in use


@pytest.mark.parametrize("page, params, key, value", [
    ("drill", {"dr_source": "bank"}, "dr_source", "bank"),
    ("drill", {"dr_source": "BANK"}, "dr_source", "bank"),  # typed by hand, in capitals
    ("drill", {"dr_source": "bank", "dr_bank": "kerala"}, "dr_bank", "kerala"),
    ("drill", {"dr_types": "meaning,which-call"}, "dr_types", ["meaning", "which-call"]),
    ("drill", {"dr_types": ["meaning", "your-call"]}, "dr_types", ["meaning", "your-call"]),
    ("analyse", {"an_mode": "seats"}, "an_mode", "seats"),
    ("analyse", {"an_mode": "Enter by seat"}, "an_mode", "seats"),  # an older link, with the words shown
    ("drill", {"dr_source": "a question bank"}, "dr_source", "bank"),
    ("review", {"rv_source": "samples"}, "rv_source", "Samples"),
    ("rules", {"teams": "pairs", "deck": "48", "players": "4"}, "deck", 48),
])
def test_a_hand_typed_short_code_is_honoured(tmp_path, monkeypatch, page, params, key, value):
    """Walked: a choice kept its shown words in the URL (dr_source=a+question+bank), so a hand-typed
    dr_source=bank was ignored. Every choice a page keeps in the URL takes its short code."""
    at = _open_link(tmp_path, monkeypatch, page, **params)
    assert at.session_state[key] == value
    assert not at.warning, [w.value for w in at.warning]


def test_a_choice_writes_its_short_code_in_the_url(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    at.segmented_control(key="dr_source").set_value("bank").run()
    assert at.query_params["dr_source"] in (["bank"], "bank")
    at.selectbox(key="dr_bank").set_value("kerala")
    at.button(key="dr_go").click().run()  # a form's choices count once it is sent
    assert at.query_params["dr_bank"] in (["kerala"], "kerala")
    at = open_page("drill", tmp_path, monkeypatch)
    at.segmented_control(key="dr_source").set_value("generated").run()  # the default: out of the URL
    assert "dr_source" not in at.query_params
    at.multiselect(key="dr_types").set_value(["meaning", "which-call"])
    at.button(key="dr_go").click().run()
    assert at.query_params["dr_types"] == ["meaning", "which-call"]


def test_an_unknown_code_is_said_in_one_line_and_left_out(tmp_path, monkeypatch):
    at = _open_link(tmp_path, monkeypatch, "drill", dr_source="library", dr_len="3")
    assert not at.exception
    [said] = [shown(w.value) for w in at.warning]
    assert said == "The address's dr_source=library is not a choice here (generated, bank), so it is left out."
    assert at.session_state["dr_source"] == "generated" and "dr_source" not in at.query_params
    assert at.select_slider(key="dr_len").value == 3  # the rest of the link is kept


def test_every_choice_the_pages_keep_in_the_url_goes_through_one_mechanism():
    """A choice widget (selectbox, segmented control, radio, pills, multiselect) never uses
    Streamlit's own binding (``in_url``), which keeps the words shown in the URL: it uses
    ``choice_in_url``; and no widget bound by ``in_url`` shows its value in other words."""
    import ast
    from pathlib import Path
    choices = {"selectbox", "segmented_control", "radio", "pills", "multiselect"}
    found = []
    for path in sorted(Path("ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            bound = any(k.arg is None and isinstance(k.value, ast.Call) and getattr(k.value.func, "id", "") == "in_url"
                        for k in node.keywords)
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if bound and (name in choices or any(k.arg == "format_func" for k in node.keywords)):
                found.append(f"{path}:{node.lineno} {name}")
    assert not found, found
