"""regle lsp, tested with a real client (pytest-lsp starts `regle lsp` over stdio and speaks
the Language Server Protocol to it): diagnostics of a broken file at the right positions soon
after a change, hover, completion in an action and inside a quoted cell name, definition,
references and rename across a file and the file it extends, the outline, formatting."""
from __future__ import annotations

import sys
import time

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from conftest import GAMES  # noqa: E402


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "regle.cli", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="regle", version=1, text=text if text is not None else path.read_text(encoding="utf-8"))))
    return uri


@pytest.mark.asyncio
async def test_diagnostics_follow_the_text_as_it_changes(client: LanguageClient, tmp_path):
    path = tmp_path / "race.rules"
    good = (GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8")
    uri = _open(client, path, good)
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []
    lines = good.splitlines()
    at = next(i for i, line in enumerate(lines) if "put me at c on board" in line)
    broken = "\n".join(lines[:at] + [lines[at].replace("board", "bord")] + lines[at + 1:]) + "\n"
    started = time.monotonic()
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=broken)]))
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    took = time.monotonic() - started
    found = client.diagnostics[uri]
    assert len(found) >= 1, found
    first = found[0]
    column = lines[at].replace("board", "bord").index("bord")
    assert first.range.start.line == at and first.range.start.character == column
    assert "bord" in first.message and first.severity == lsp.DiagnosticSeverity.Error
    print(f"diagnostics {took:.2f} s after the change")  # the issue asks for under 1 s; not asserted
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=good)]))
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


def _drop_line(client: LanguageClient) -> tuple[str, list[str], int]:
    """Connect Four opened in the client: its uri, its lines, and the line that drops a piece."""
    path = GAMES / "classics" / "connect4.rules"
    lines = path.read_text(encoding="utf-8").splitlines()
    uri = _open(client, path)
    return uri, lines, next(i for i, line in enumerate(lines) if "drop me into board" in line)


@pytest.mark.asyncio
async def test_hover_definition_completion_and_outline_on_a_game(client: LanguageClient):
    uri, lines, use = _drop_line(client)
    column = lines[use].index("board", lines[use].index("into"))
    where = dict(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=use, character=column + 1))
    hovered = await client.text_document_hover_async(lsp.HoverParams(**where))
    assert "grid" in hovered.contents.value and "board" in hovered.contents.value
    found = await client.text_document_definition_async(lsp.DefinitionParams(**where))
    declared = next(i for i, line in enumerate(lines) if line.startswith("grid board"))
    assert found.range.start.line == declared and found.range.start.character == len("grid ")
    # completion inside an action's block: keywords, built-ins and the file's names
    items = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=use, character=6)))
    labels = {i.label for i in items.items}
    assert {"drop", "count", "board", "in_a_row"} <= labels
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    names = [s.name for s in symbols]
    assert "grid board" in names and "turn" in names
    turn = next(s for s in symbols if s.name == "turn")
    assert turn.children and turn.children[0].name.startswith("step ")


@pytest.mark.asyncio
async def test_hover_on_a_keyword_or_a_value_says_what_it_means(client: LanguageClient):
    uri, lines, use = _drop_line(client)
    for word, said in (("into", "where a piece goes"), ("me", "the seat playing the turn")):
        where = dict(text_document=lsp.TextDocumentIdentifier(uri=uri),
                     position=lsp.Position(line=use, character=lines[use].index(word) + 1))
        hovered = await client.text_document_hover_async(lsp.HoverParams(**where))
        assert said in hovered.contents.value, (word, hovered.contents.value)


def test_every_keyword_and_value_has_one_line_and_the_docs_table_is_up_to_date():
    """regle/words.py describes every keyword and built-in value the highlighter knows, and
    docs/language.md holds the very table it makes (one source for hover and the docs)."""
    from regle import words
    from regle.highlight import CONSTANTS, KEYWORDS
    assert set(words.KEYWORD_DOCS) == set(KEYWORDS) and set(words.CONSTANT_DOCS) == set(CONSTANTS)
    assert all(text and len(text) <= 110 and "\n" not in text for text in {**words.KEYWORD_DOCS, **words.CONSTANT_DOCS}.values())
    docs = (GAMES.parent / "docs" / "language.md").read_text(encoding="utf-8")
    assert words.table() in docs


@pytest.mark.asyncio
async def test_completion_inside_a_quoted_cell_name_offers_the_grids_cells(client: LanguageClient, tmp_path):
    text = ('game "Q" { players 2 }\ngrid board: player square 3 by 3\n'
            'setup {\n  put 0 at "" on board\n}\n'
            'turn { step s { action put(c in empty_cells(board)) "{c}" { put me at c on board } } }\n'
            'end when count(empty_cells(board)) == 0\n')
    text = text.replace('put 0 at "" on board', 'put 0 at cell(board, "") on board')
    uri = _open(client, tmp_path / "q.rules", text)
    line = text.splitlines()[3]
    items = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=3, character=line.index('""') + 1)))
    labels = {i.label for i in items.items}
    assert {"a1", "b2", "c3"} <= labels and "n" in labels  # cells and directions
    assert "drop" not in labels  # no keywords inside a text


@pytest.mark.asyncio
async def test_references_and_rename_reach_the_file_it_extends(client: LanguageClient, tmp_path):
    base = tmp_path / "base.rules"
    base.write_text('game "B" { players 2 }\ncounter points per player\nparam goal = 5\n'
                    'turn { step s { action add "add ({goal})" { points[me] += 1 } } }\n'
                    'end when any(points[p] >= goal for p in players)\n', encoding="utf-8")
    variant = tmp_path / "variant.rules"
    variant.write_text('extend "base.rules"\noverride param goal = 7  # goal: a longer race\n', encoding="utf-8")
    uri = _open(client, variant)
    base_uri = base.as_uri()
    at = lsp.Position(line=1, character=len("override param g"))
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=at,
        context=lsp.ReferenceContext(include_declaration=True)))
    places = {(r.uri, r.range.start.line) for r in refs}
    assert (uri, 1) in places and (base_uri, 2) in places and (base_uri, 3) in places and (base_uri, 4) in places
    assert (uri, 1) in places and len([r for r in refs if r.uri == uri]) == 1  # not the comment's "goal"
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=at, new_name="target"))
    assert set(edit.changes) == {uri, base_uri}
    base_text = base.read_text(encoding="utf-8").splitlines()
    for e in edit.changes[base_uri]:
        line = base_text[e.range.start.line]
        assert line[e.range.start.character:e.range.end.character] == "goal"
    assert len(edit.changes[base_uri]) == 3  # the param, the placeholder {goal}, the end condition


@pytest.mark.asyncio
async def test_formatting_gives_the_canonical_layout(client: LanguageClient, tmp_path):
    messy = 'game   "T"{players 2}\ncounter  a\nturn{step s{action go{a+=1}}}\nend when a>=3\n'
    uri = _open(client, tmp_path / "t.rules", messy)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    from regle.dsl.printer import format_text
    assert len(edits) == 1 and edits[0].new_text == format_text(messy)


def test_regle_lsp_is_a_command():
    import subprocess
    done = subprocess.run([sys.executable, "-m", "regle.cli", "lsp", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "Language Server Protocol" in done.stdout


@pytest.mark.asyncio
async def test_references_from_a_shipped_variant_reach_its_base_game(client: LanguageClient):
    variant = GAMES / "variants" / "cibles-values.rules"
    base = (GAMES / "cibles.rules").resolve()
    uri = _open(client, variant)
    line = next(i for i, text in enumerate(variant.read_text(encoding="utf-8").splitlines())
                if text.startswith("override param target_value"))
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=20),
        context=lsp.ReferenceContext(include_declaration=True)))
    in_base = [r for r in refs if r.uri == base.as_uri()]
    base_lines = base.read_text(encoding="utf-8").splitlines()
    assert len(in_base) >= 3 and all("target_value" in base_lines[r.range.start.line] for r in in_base)
    assert any(r.uri == uri and r.range.start.line == line for r in refs)
    hovered = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=20)))
    assert "param" in hovered.contents.value and "Target values" in hovered.contents.value


def test_every_built_in_function_has_its_own_hover_text():
    """Hover (and completion's detail) describes each built-in the highlighter knows, each text
    showing how it is called."""
    pytest.importorskip("pygls")
    from regle.highlight import BUILTINS
    from regle.lsp import BUILTIN_DOCS
    assert set(BUILTINS) == set(BUILTIN_DOCS)
    for name, text in BUILTIN_DOCS.items():
        assert text.startswith(name + "("), name
        assert len(text) <= 110, name


@pytest.mark.asyncio
async def test_a_document_that_checks_slowly_blocks_neither_hovers_nor_newer_edits(client: LanguageClient, tmp_path):
    """Checks run beside the server's loop: a hover on another file is answered while a costly
    text is being checked, that text is refused by the checker's budget with a positioned error,
    and of several quick edits only the newest text's diagnostics are published last."""
    from test_trust_four import chain
    slow = _open(client, tmp_path / "chain.rules", chain(20))
    path = GAMES / "classics" / "connect4.rules"
    lines = path.read_text(encoding="utf-8").splitlines()
    other = _open(client, path)
    use = next(i for i, line in enumerate(lines) if "drop me into board" in line)
    column = lines[use].index("board", lines[use].index("into"))
    hovered = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=other), position=lsp.Position(line=use, character=column + 1)))
    assert "board" in hovered.contents.value
    while slow not in client.diagnostics:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    [refused] = client.diagnostics[slow]
    assert "too much to check" in refused.message and refused.range.start.line == 30
    good = (GAMES / "classics" / "tictactoe.rules").read_text(encoding="utf-8")
    for version, text in enumerate([good.replace("board", "bord", 1), chain(20), good], start=2):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=slow, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and list(client.diagnostics[slow]):
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[slow]) == []  # the newest text (clean) has the last word
