"""The shells: what faces users and editors (the command line, the language server, the IPython
extension and excepthook, the JupyterLab spec). They sit above the core and delegate to it; no
module outside `shells` imports one of them (tests/test_layers.py keeps it so)."""
