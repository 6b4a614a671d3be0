"""Issue 44, "no user text as markup": every string from a user, a file or a URL (player
names, bank titles, prompts, choices, explanations, record events, [Players] names, comments,
file names) is shown as typed on every page that shows it: no link, image, strikethrough or
HTML element forms.

Each page is run in AppTest with hostile strings and every Markdown string it sends to the
browser (bodies and labels) is read by an independent CommonMark + GFM parser
(markdown-it-py with linkify, as Streamlit's remark-gfm reads links, images, HTML and
autolinks); remark-gfm also strikes through text between single tildes, so any tilde not
escaped counts as a strikethrough. tests/test_browser_coach.py checks the same in Chromium.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from fiftysix.drills.library import Library
from fiftysix.records import parse_records
from tests.app_harness import open_page

HOSTILE = ("![](http://HOST/p.png)", "[Log in again](https://x)", "~never~", "<img src=x>", "**b**")
H = " ".join(HOSTILE)
PLAYER = "[Log in](https://x) ~never~ **b**"  # the sidebar's name box takes 40 characters
RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
MD = MarkdownIt("gfm-like")
FORBIDDEN = {"link_open", "image", "s_open", "html_inline", "html_block"}
"""What user text must never form (the page's own bold and italics are its own; "**b**" is
checked to come through as typed)."""


def _walk(tokens):
    for t in tokens:
        yield t
        if t.children:
            yield from _walk(t.children)


def rendered(markdown: str) -> tuple[set[str], str]:
    """What a Markdown string becomes: the kinds of element it forms, and its text."""
    tokens = list(_walk(MD.parse(markdown)))
    kinds = {t.type for t in tokens}
    if re.search(r"(?<!\\)~", markdown):  # remark-gfm: ~one~ tilde is a strikethrough too
        kinds.add("s_open")
    text = "".join(t.content if t.type in ("text", "code_inline") else "\n" if "break" in t.type else ""
                   for t in tokens)
    return kinds, text


PLAIN = ("Html", "PlotlyChart", "Arrow", "Text", "Code")
"""Elements whose text is not Markdown (HTML and charts are checked apart)."""


def markdown_strings(at) -> list[tuple[str, str]]:
    """Every string the page sends to be read as Markdown: element bodies and labels (widgets,
    buttons, expanders, popovers, tabs), each with the kind of element that carries it."""
    out = []

    def scan(msg, kind: str) -> None:
        for field, value in msg.ListFields():
            if field.type == field.TYPE_MESSAGE:
                for v in (value if not hasattr(value, "ListFields") else [value]):
                    scan(v, kind)
            elif field.name in ("body", "label") and isinstance(value, str):
                out.append((kind, value))

    for node in at._tree:
        proto = getattr(node, "proto", None)
        if proto is not None and type(proto).__name__ not in PLAIN:
            scan(proto, type(proto).__name__)
    return out


def check_page(at, must_show: tuple[str, ...] = HOSTILE) -> None:
    """No Markdown string forms a link, image, strikethrough or HTML; ``must_show`` reaches the
    page as text, as typed; HTML and chart labels hold the hostile strings escaped."""
    assert not at.exception, [e.value for e in at.exception]
    texts = []
    for element, s in markdown_strings(at):
        kinds, text = rendered(s)
        bad = kinds & FORBIDDEN
        assert not bad, (bad, element, s)
        texts.append(text)
    everything = "\n".join(texts)
    for piece in must_show:
        assert piece in everything, (piece, everything[:2000])
    for node in at._tree:
        proto = getattr(node, "proto", None)
        kind = type(proto).__name__
        raw = proto.body if kind == "Html" else (
            json.dumps(json.loads(proto.spec), ensure_ascii=False) if kind == "PlotlyChart" else "")
        assert "<img" not in raw.replace("<img class", "") and "<a " not in raw, raw[:500]


def _bank() -> bytes:
    q = {"id": "h1", "type": "meaning", "context": {"system": "international", "players": 6, "auction": ""},
         "data": {"call": "28H"}, "prompt": H, "choices": [H, "plain"], "answers": [H], "explanation": H,
         "family": H, "tags": [H]}
    return json.dumps({"format": "fiftysix-bank", "version": 1, "title": H, "author": H, "system": "international",
                       "questions": [q]}).encode()


def _record() -> str:
    text = (RECORDS / "4x8.txt").read_text(encoding="utf-8")
    first = text[text.index("[Event"):text.index("[Event", text.index("[Event") + 1)]
    first = first.replace("Thursday club", H).replace("Anil", H)
    return re.sub(r"\{[^}]*\}", "{" + H + "}", first)


@pytest.fixture
def hostile_library(tmp_path):
    lib = Library(tmp_path / "progress.sqlite3")
    rec = _record()
    lib.add(parse_records(rec, "hostile"), H)
    return lib


def test_coach_drill_and_progress_show_bank_text_as_typed(tmp_path, monkeypatch):
    """A bank whose title, author, prompt, choices, explanation, family and tags are hostile,
    uploaded under a hostile file name, shown on Coach (upload, messages, the engine's
    problems, the edit form), drilled (prompt, choice buttons, feedback, explanation) and
    read on Progress (chart labels, ideas), under a hostile player name."""
    at = open_page("coach", tmp_path, monkeypatch, player=PLAYER)
    name = "[Log in again](https:x) ~never~ **b**.json"
    at.file_uploader(key="co_upload").upload(name, _bank()).run()
    check_page(at, ("[Log in again](https:x) ~never~ **b**.json",))
    at.button(key="co_edit_btn").click().run()
    check_page(at, ("h1",))
    at.file_uploader(key="co_upload").clear().upload(name, _bank()).run()  # asks: replace or merge
    check_page(at, ("[Log in again](https:x) ~never~ **b**.json holds 1 question(s)",))
    at.switch_page("ui/pages/drill.py").run()
    check_page(at, (f"{PLAYER}: ",))  # the player's name in the caption
    at.segmented_control(key="dr_source").set_value("bank").run()
    at.selectbox(key="dr_bank").set_value("coach")  # a form: sent with the button
    at.button(key="dr_go").click().run()
    check_page(at)  # the prompt and the choices
    at.button(key="dr_pick_0").click().run()
    at.button(key="dr_answer").click().run()
    check_page(at, (f"Right: {H}",))  # and the explanation
    at.switch_page("ui/pages/progress.py").run()
    check_page(at, ())
    at.segmented_control(key="pr_by").set_value("source").run()
    check_page(at, ())
    labels = json.loads(at.get("plotly_chart")[1].proto.spec)["data"][0]["x"]
    assert labels == ["![](http://HOST/p.png) [Log in again](https://x) ~never~ &lt;img src=x&gt; **b**"]


def test_progress_with_no_answers_names_the_player_as_typed(tmp_path, monkeypatch):
    at = open_page("progress", tmp_path, monkeypatch, player=PLAYER)
    check_page(at, (f"No answers recorded for {PLAYER} yet",))


def test_library_and_review_show_record_text_as_typed(tmp_path, monkeypatch, hostile_library):
    """A record whose event, [Players] names, comments and notes are hostile, stored from a
    file with a hostile name: the library's table and buttons, Review's comments and notes."""
    at = open_page("library", tmp_path, monkeypatch)
    check_page(at, ())
    at.file_uploader(key="lb_upload").upload("[Log in again](https:x).txt", _record().encode()).run()
    check_page(at, ("Add the records of [Log in again](https:x).txt",))
    entry = hostile_library.list()[0]
    at.multiselect(key="lb_pick").set_value([entry.id]).run()
    at.button(key="lb_review").click().run()
    assert not at.exception, [e.value for e in at.exception]
    for _ in range(3):  # the review steps the auction: a comment shows with its call
        if any(H in rendered(s)[1] for _, s in markdown_strings(at)):
            break
        at.run()
    check_page(at, (f"Note in the record: {H}",))


def test_bad_files_and_links_are_named_as_typed(tmp_path, monkeypatch):
    """Error boxes quote what the user gave (a file name, an auction, a deal): as text."""
    bad = "[Log in again](https:x) ~never~ **b**.txt"
    at = open_page("review", tmp_path, monkeypatch, rv_source="Upload")
    at.file_uploader(key="rv_upload").upload(bad, b"[Event \"x\"]\n[Deal \"nonsense\"]\n").run()
    check_page(at, (f"{bad} was not loaded",))
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload(bad, H.encode()).run()
    check_page(at, (f"{bad} was not loaded",))
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input(f"28H {H}").run()
    check_page(at, ("![](http://HOST/p.png)",))


def test_a_class_shows_its_name_and_its_coach_as_typed(tmp_path, monkeypatch):
    """On a club server: a class named by its coach, and the coach's name from the sign-in
    provider, in the message a student sees on joining it."""
    from fiftysix.drills.classes import ClassStore
    from tests.app_harness import CLUB_SECRETS, member
    coach = open_page("classes", tmp_path, monkeypatch, club=CLUB_SECRETS, user=member("ann", H))
    coach.text_input(key="cl_new_name").input(H)
    coach.button(key="FormSubmitter:cl_new_form-Start").click().run()
    check_page(coach, ())
    [c] = ClassStore(tmp_path / "progress.sqlite3").coached_by("oidc:http://idp.test|ann")
    student = open_page("classes", tmp_path, monkeypatch, club=CLUB_SECRETS, user=member("bob", "Bob"))
    student.text_input(key="cl_code").input(c.show_code())
    student.button(key="FormSubmitter:cl_join_form-Join").click().run()
    check_page(student, (f"You joined {H} (coach: {H})",))


def test_hands_and_deals_typed_wrong_are_quoted_as_typed(tmp_path, monkeypatch):
    """Enter a hand, Play and Analyse (a deal in a shared link) quote a hand or a deal that does
    not read: as text."""
    at = open_page("enter", tmp_path, monkeypatch)
    at.text_input(key="en_hand_1").input(H).run()
    assert at.error
    check_page(at, ())
    deal = "<img_src=x> ~never~ **b** [x](https://x) ![](http://HOST/p.png) J.9A"  # six "hands"
    at = open_page("play", tmp_path, monkeypatch, pl_from="written", pl_deal=deal)
    assert at.error
    check_page(at, ())
    said = " ".join(rendered(s)[1] for kind, s in markdown_strings(at) if kind == "Alert")
    assert any(piece in said for piece in deal.split()), said
    at = open_page("analyse", tmp_path, monkeypatch, query={"an_mode": "Paste", "deal": deal})  # a shared link
    assert at.error
    check_page(at, ())
    said = " ".join(rendered(s)[1] for kind, s in markdown_strings(at) if kind == "Alert")
    assert any(piece in said for piece in deal.split()), said
