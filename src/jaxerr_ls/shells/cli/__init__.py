"""The command line: `jaxerr-ls` (main.py) and a module for each command of some size."""
