import sys

from jaxerr_ls.cli import main

sys.exit(main())
