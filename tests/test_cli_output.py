"""The command line's one writer: --json picks the data, else the text; streams are written as they come."""
from __future__ import annotations

import json

from fiftysix.ui.cli import main
from fiftysix.ui.commands.output import Output, lines, write


def test_one_output_prints_the_data_with_json_and_the_text_without(capsys):
    out = Output({"odd": 30, "even": 26, "seat": "é"}, "odd: 30 even: 26\n", text_stderr="a note\n")
    assert write(out, as_json=True) == 0
    printed, err = capsys.readouterr()
    assert printed == '{"odd": 30, "even": 26, "seat": "é"}\n' and err == ""  # one line, non-ASCII as is
    assert json.loads(printed) == out.data
    assert write(out, as_json=False) == 0
    assert capsys.readouterr() == ("odd: 30 even: 26\n", "a note\n")


def test_text_none_is_the_json_line_and_data_none_prints_nothing(capsys):
    write(Output({"line": 1, "error": "x"}), as_json=False)
    assert capsys.readouterr().out == '{"line": 1, "error": "x"}\n'
    write(Output(None, "help text\n", stderr="always\n"), as_json=True)
    assert capsys.readouterr() == ("", "always\n")
    write(Output(None, "help text\n", stderr="always\n"), as_json=False)
    assert capsys.readouterr() == ("help text\n", "always\n")


def test_a_stream_is_written_item_by_item_and_its_status_is_the_largest(capsys):
    seen = []

    def stream():
        yield Output({"n": 1}, "one\n")
        seen.append(capsys.readouterr().out)  # the first item is out before the second is made
        yield Output({"n": 2}, "two\n", status=1)
        yield Output({"n": 3}, "three\n")

    assert write(stream(), as_json=False) == 1
    assert seen == ["one\n"] and capsys.readouterr().out == "two\nthree\n"


def test_lines_ends_every_row_with_a_newline():
    assert lines(["a", "", "b"]) == "a\n\nb\n" and lines([]) == ""


def test_main_writes_what_the_handler_returns(capsys):
    assert main(["deal", "--players", "4", "--seed", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main(["deal", "--players", "4", "--seed", "3"]) == 0
    assert capsys.readouterr().out == doc["deal"] + "\n"
