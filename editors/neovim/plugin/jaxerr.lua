-- jaxerr-ls companion commands for Neovim (0.7+).
--   :JaxErrExplain [file]  explain a traceback: from [file], else the unnamed register, else the
--                          last terminal buffer; the server underlines your line (diagnostics).
--   :'<,'>JaxErrExplain    explain the selected lines, whatever they hold: a traceback, the
--                          exception line or message alone, a notebook error copy, a log.
--   :JaxErrClear           remove those diagnostics.
--   :JaxErrSettings [key=value ...]  change the server's settings while it runs (siteUrl=URL,
--                          predict=true|false, interpreter=PATH); without arguments, show them.
--   Terminal capture:      a traceback printed in a :terminal buffer is explained automatically
--                          (when it appears, and when the job exits); vim.g.jaxerr_capture_terminal = false
--                          turns it off.
-- Neovim 0.7-0.10 (no vim.lsp.config): the server is started for Python buffers from here, using
-- lsp/jaxerr_ls.lua; set vim.g.jaxerr_autostart = false when you start it yourself (nvim-lspconfig),
-- vim.g.jaxerr_cmd = { ... } to change the command.
if vim.g.loaded_jaxerr then
  return
end
vim.g.loaded_jaxerr = true

local NAME = 'jaxerr_ls'
local EXPLAIN = 'jaxerr.explainTraceback'
local CLEAR = 'jaxerr.clearDiagnostics'
local uv = vim.uv or vim.loop
local has_011 = vim.fn.has('nvim-0.11') == 1

local function notify(msg, level)
  vim.notify('jaxerr: ' .. msg, level or vim.log.levels.INFO)
end

local function looks_like_traceback(text)
  return text:find('Traceback %(most recent call last%)') ~= nil
    or text:find('\n%s*File "[^"\n]+", line %d+') ~= nil
    or text:find('^%s*File "[^"\n]+", line %d+') ~= nil
end

-- Worth explaining even without a traceback: a line naming an exception (`ValueError: ...`,
-- `jax.errors.TracerBoolConversionError: ...`, a bare `AssertionError`), or a notebook error
-- copy. (A message without its class is only sent when selected: :'<,'>JaxErrExplain.)
local function looks_like_error(text)
  return looks_like_traceback(text)
    or text:find('[%w_]Error:') ~= nil
    or text:find('[%w_]Exception:') ~= nil
    or text:find('[%w_]Error%s*$') ~= nil
    or text:find('[%w_]Error%s*\n') ~= nil
    or text:find('"stack"%s*:') ~= nil
end

local function is_stopped(c)
  if has_011 then
    return c:is_stopped()
  end
  return c.is_stopped ~= nil and c.is_stopped()
end

local function clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = NAME }) or vim.lsp.get_active_clients()
  local out = {}
  for _, c in pairs(all) do
    if c.name == NAME and not is_stopped(c) then
      table.insert(out, c)
    end
  end
  return out
end

-- the client attached to the current buffer, else any running jaxerr_ls client
local function find_client()
  local cur = vim.api.nvim_get_current_buf()
  local list = clients()
  for _, c in ipairs(list) do
    if c.attached_buffers and c.attached_buffers[cur] then
      return c
    end
  end
  return list[1]
end

local function client_root(client)
  return client.root_dir or (client.config and client.config.root_dir) or vim.fn.getcwd()
end

local function request(client, method, params, handler)
  if has_011 then
    return client:request(method, params, handler)
  end
  return client.request(method, params, handler)
end

local function report(result)
  if type(result) ~= 'table' or #result == 0 then
    notify('no Python traceback found in that text', vim.log.levels.WARN)
    return
  end
  local t = result[#result]
  -- A message pasted without its class has exception == '': the entry's title says what it is.
  local exception = (t.exception ~= nil and t.exception ~= '') and t.exception or 'Error'
  local msg = exception .. ': ' .. (tostring(t.message or ''):match('^[^\n]*') or '')
  local loc = type(t.location) == 'table' and t.location or nil
  if loc and loc.path and loc.line then
    msg = msg .. ('  (%s:%d)'):format(vim.fn.fnamemodify(loc.path, ':~:.'), loc.line)
  end
  if type(t.entry) == 'table' and t.entry.title then
    msg = msg .. '\n' .. t.entry.title
  end
  notify(msg)
end

--- Sends traceback text to the server; quiet = no message (terminal capture).
local function explain(text, quiet)
  local client = find_client()
  if not client then
    notify('jaxerr-ls is not running: open a Python file of the project first (see :checkhealth vim.lsp)',
      vim.log.levels.ERROR)
    return false
  end
  local params = { command = EXPLAIN, arguments = { { text = text, root = client_root(client) } } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      notify('explaining failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif not quiet then
      report(result)
    end
  end)
  return true
end

local last_term_buf -- the most recent terminal buffer with output
local last_traceback -- function(buf) -> text|nil, defined with the terminal capture below


vim.api.nvim_create_user_command('JaxErrExplain', function(opts)
  local text, origin
  if opts.range > 0 and opts.args == '' then
    local lines = vim.api.nvim_buf_get_lines(0, opts.line1 - 1, opts.line2, false)
    text, origin = table.concat(lines, '\n'), 'the selected lines'
  elseif opts.args ~= '' then
    local path = vim.fn.fnamemodify(vim.fn.expand(opts.args), ':p')
    if vim.fn.filereadable(path) ~= 1 then
      notify('cannot read ' .. path, vim.log.levels.ERROR)
      return
    end
    text, origin = table.concat(vim.fn.readfile(path), '\n'), path
  else
    text, origin = vim.fn.getreg('"'), 'the unnamed register'
    if not looks_like_error(text) and last_term_buf and vim.api.nvim_buf_is_valid(last_term_buf) then
      text, origin = last_traceback(last_term_buf) or '', 'the last terminal buffer'
    end
  end
  if not text or vim.trim(text) == '' then
    notify('nothing to explain in ' .. origin, vim.log.levels.WARN)
    return
  end
  explain(text, false)
end, {
  nargs = '?',
  range = true,
  complete = 'file',
  desc = 'jaxerr: explain a traceback or error text (selected lines, file, unnamed register, or last terminal)',
})

vim.api.nvim_create_user_command('JaxErrClear', function()
  local client = find_client()
  if not client then
    notify('jaxerr-ls is not running', vim.log.levels.WARN)
    return
  end
  request(client, 'workspace/executeCommand', { command = CLEAR, arguments = {} }, function(err)
    if err then
      notify('clearing failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
  end)
end, { desc = 'jaxerr: clear the diagnostics of explained tracebacks' })

-- Settings -------------------------------------------------------------------------------------

-- What the server reads from the `jaxerr` section, and the kind of each value.
local SETTINGS = { siteUrl = 'string', predict = 'boolean', interpreter = 'string' }

-- The client's settings table: the one Neovim answers workspace/configuration from
-- (`client.settings` on 0.11, `client.config.settings` before).
local function settings_of(client)
  if client.settings ~= nil then
    return client.settings
  end
  client.config.settings = client.config.settings or {}
  return client.config.settings
end

local function parse_setting(arg)
  local key, value = arg:match('^([%w]+)=(.*)$')
  if not key or not SETTINGS[key] then
    local known = vim.tbl_keys(SETTINGS)
    table.sort(known)
    return nil, ('%s: expected key=value, key one of %s'):format(arg, table.concat(known, ', '))
  end
  if SETTINGS[key] == 'boolean' then
    if value ~= 'true' and value ~= 'false' then
      return nil, ('%s: %s is true or false'):format(arg, key)
    end
    return key, value == 'true'
  end
  return key, value
end

vim.api.nvim_create_user_command('JaxErrSettings', function(opts)
  local list = clients()
  if #list == 0 then
    notify('jaxerr-ls is not running', vim.log.levels.WARN)
    return
  end
  local changes = {}
  for _, arg in ipairs(opts.fargs) do
    local key, value = parse_setting(arg)
    if key == nil then
      notify(value, vim.log.levels.ERROR)
      return
    end
    changes[key] = value
  end
  for _, client in ipairs(list) do
    local settings = settings_of(client)
    settings.jaxerr = vim.tbl_extend('force', settings.jaxerr or {}, changes)
    if next(changes) ~= nil then
      -- pushed whole: the server applies the section at once (and it answers a later
      -- workspace/configuration the same way)
      local params = { settings = settings }
      if has_011 then
        client:notify('workspace/didChangeConfiguration', params)
      else
        client.notify('workspace/didChangeConfiguration', params)
      end
    end
  end
  notify('settings: ' .. vim.inspect(settings_of(list[1]).jaxerr, { newline = ' ', indent = '' }))
end, {
  nargs = '*',
  complete = function()
    return { 'siteUrl=', 'predict=true', 'predict=false', 'interpreter=' }
  end,
  desc = 'jaxerr: change the running server\'s settings (siteUrl=, predict=, interpreter=)',
})

-- Terminal capture -----------------------------------------------------------------------------

local function capture_on()
  return vim.g.jaxerr_capture_terminal ~= false
end

local sent = {} -- buf -> text of the last traceback sent from it
local exited = {} -- buf -> true once its job has exited (TermClose)

local term_width = {} -- buf -> width of the terminal (columns) when last seen in a window

local function remember_width(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    local info = vim.fn.getwininfo(win)[1]
    if info then
      term_width[buf] = info.width - (info.textoff or 0)
      return
    end
  end
end

-- Terminal buffer lines are hard-wrapped at the terminal's width: join a line that fills the
-- whole width with the next one, so long paths and messages come out whole.
local function unwrapped_lines(buf)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local width = term_width[buf]
  if not width or width < 20 then
    return lines
  end
  local out, cur = {}, nil
  for _, l in ipairs(lines) do
    cur = cur and (cur .. l) or l
    if vim.fn.strdisplaywidth(l) < width then
      table.insert(out, cur)
      cur = nil
    end
  end
  if cur then
    table.insert(out, cur)
  end
  return out
end

local CHAINED = { 'The above exception was the direct cause', 'During handling of the above exception' }

local function is_chain_line(l)
  for _, p in ipairs(CHAINED) do
    if l:find(p, 1, true) then
      return true
    end
  end
  return false
end

-- The last complete traceback in a terminal buffer: from the last "Traceback" header (and the
-- tracebacks chained to it) to the end, once an unindented exception line follows a frame.
last_traceback = function(buf)
  -- the width now, not at TermOpen: :JaxErrExplain reads terminals that capture never checked
  remember_width(buf)
  local lines = unwrapped_lines(buf)
  local start
  for i = #lines, 1, -1 do
    if lines[i]:find('Traceback %(most recent call last%)') then
      start = i
      break
    end
  end
  if not start then
    return nil
  end
  local seen_frame, done = false, false
  for i = start + 1, #lines do
    local l = lines[i]
    if l:find('^%s+File "') then
      seen_frame = true
    elseif seen_frame and (l:find('^[%a_][%w_%.]*:') or l:find('^[%a_][%w_%.]*$')) then
      done = true
      break
    end
  end
  if not done then
    return nil
  end
  -- walk back over "The above exception was the direct cause ..." links
  local i = start - 1
  while i > 0 do
    if is_chain_line(lines[i]) then
      local j = i - 1
      while j > 0 and not lines[j]:find('Traceback %(most recent call last%)') do
        j = j - 1
      end
      if j == 0 then
        break
      end
      start, i = j, j - 1
    elseif vim.trim(lines[i]) == '' then
      i = i - 1
    else
      break
    end
  end
  local block = {}
  for k = start, #lines do
    table.insert(block, lines[k])
  end
  return (table.concat(block, '\n'):gsub('%s+$', ''))
end

local function check_terminal(buf)
  if not capture_on() or not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local tb = last_traceback(buf)
  if tb and tb ~= sent[buf] and #clients() > 0 then
    sent[buf] = tb
    explain(tb, true)
  end
end

local group = vim.api.nvim_create_augroup('jaxerr', { clear = true })

vim.api.nvim_create_autocmd('TermOpen', {
  group = group,
  callback = function(args)
    local buf = args.buf
    last_term_buf = buf
    remember_width(buf)
    local timer = uv.new_timer()
    vim.api.nvim_buf_attach(buf, false, {
      on_lines = function()
        last_term_buf = buf
        if not capture_on() or exited[buf] then -- after the exit, TermClose's check decides
          return
        end
        -- debounce: the traceback is complete once the output pauses
        timer:stop()
        timer:start(400, 0, vim.schedule_wrap(function()
          check_terminal(buf)
        end))
      end,
      on_detach = function()
        if not timer:is_closing() then
          timer:stop()
          timer:close()
        end
      end,
    })
  end,
})

-- after the job exits: poll every SETTLE_STEP_MS until the buffer is unchanged for SETTLE_MS
local SETTLE_STEP_MS, SETTLE_MS, SETTLE_MAX_MS = 25, 300, 10000

vim.api.nvim_create_autocmd('TermClose', {
  group = group,
  callback = function(args)
    last_term_buf = args.buf
    local status = vim.v.event and vim.v.event.status
    if status == 0 then
      return
    end
    -- TermClose can come before the terminal buffer's last refresh (a loaded machine draws the
    -- job's final output later, in pieces): check once the buffer has stopped changing for
    -- SETTLE_MS (or SETTLE_MAX_MS passed), so a half-drawn traceback is never sent.
    local buf = args.buf
    exited[buf] = true
    local timer = uv.new_timer()
    local last_tick, still, waited = -1, 0, 0
    local function finish()
      if not timer:is_closing() then
        timer:stop()
        timer:close()
      end
    end
    local function poll()
      if timer:is_closing() then
        return
      end
      if not vim.api.nvim_buf_is_valid(buf) then
        finish()
        return
      end
      local tick = vim.api.nvim_buf_get_changedtick(buf)
      if tick ~= last_tick then
        last_tick, still = tick, 0
      else
        still = still + SETTLE_STEP_MS
      end
      waited = waited + SETTLE_STEP_MS
      if still >= SETTLE_MS or waited >= SETTLE_MAX_MS then
        finish()
        check_terminal(buf)
      end
    end
    timer:start(SETTLE_STEP_MS, SETTLE_STEP_MS, vim.schedule_wrap(poll))
  end,
})

vim.api.nvim_create_autocmd('BufWipeout', {
  group = group,
  callback = function(args)
    sent[args.buf] = nil
    exited[args.buf] = nil
    term_width[args.buf] = nil
  end,
})

-- Neovim 0.7-0.10: start the server ourselves ------------------------------------------------

if vim.lsp.config ~= nil or vim.g.jaxerr_autostart == false then
  return
end

local function load_config()
  local files = vim.api.nvim_get_runtime_file('lsp/' .. NAME .. '.lua', false)
  local ok, cfg = pcall(dofile, files[1] or '')
  if not ok or type(cfg) ~= 'table' then
    cfg = { cmd = { 'jaxerr-ls' }, root_markers = { 'pyproject.toml', 'setup.py', '.git', '.jaxerr' } }
  end
  if vim.g.jaxerr_cmd then
    cfg.cmd = vim.g.jaxerr_cmd
  end
  return cfg
end

local function find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while dir and dir ~= '' do
    for _, m in ipairs(markers) do
      if uv.fs_stat(dir .. '/' .. m) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return vim.fn.getcwd()
end

local by_root = {} -- root -> client id (0.7 path)

vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = 'python',
  callback = function(args)
    local cfg = load_config()
    if vim.fn.executable(cfg.cmd[1]) ~= 1 then
      notify(("'%s' not found: install jaxerr-ls (pip install jaxerr-ls) or set vim.g.jaxerr_cmd"):format(cfg.cmd[1]),
        vim.log.levels.WARN)
      return
    end
    local root = find_root(vim.api.nvim_buf_get_name(args.buf), cfg.root_markers or {})
    local config = { name = NAME, cmd = cfg.cmd, root_dir = root }
    if vim.lsp.start then -- 0.8+
      vim.lsp.start(config, { bufnr = args.buf })
      return
    end
    local id = by_root[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client(config)
      by_root[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
