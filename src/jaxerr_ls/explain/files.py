"""Where a failed run's traceback waits for the server: `jaxerr-ls run` writes
`.jaxerr/last-run.txt` under its root; the server reads every `.jaxerr/*.txt` it sees change."""

JAXERR_DIR = ".jaxerr"
LAST_RUN = "last-run.txt"
