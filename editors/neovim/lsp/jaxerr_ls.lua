-- jaxerr-ls: explains JAX errors (hover on JAX APIs, diagnostics from tracebacks, quick fixes).
-- Neovim 0.11+: with this directory on 'runtimepath', `vim.lsp.enable('jaxerr_ls')` is all it takes.
-- Override any field with vim.lsp.config('jaxerr_ls', { cmd = { '/path/to/venv/bin/jaxerr-ls' } }).

-- The server serves diagnostics by pull (textDocument/diagnostic) to clients that can pull. When a
-- traceback arrives (:JaxErrExplain, a terminal, a .jaxerr/*.txt file) it asks the client to pull
-- again with workspace/diagnostic/refresh, which Neovim 0.11 does not handle by itself: do it here.
local function pull_again(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    for bufnr in pairs(client.attached_buffers) do
      local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
      if vim.fn.has('nvim-0.11') == 1 then
        client:request('textDocument/diagnostic', params, vim.lsp.diagnostic.on_diagnostic, bufnr)
      else
        client.request('textDocument/diagnostic', params, vim.lsp.diagnostic.on_diagnostic, bufnr)
      end
    end
  end
  return vim.NIL
end

return {
  cmd = { 'jaxerr-ls' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.py', '.git', '.jaxerr' },
  capabilities = { workspace = { diagnostics = { refreshSupport = true } } },
  handlers = { ['workspace/diagnostic/refresh'] = pull_again },
}
