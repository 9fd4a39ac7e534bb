import sys

from jaxerr_ls.shells.cli.main import main

sys.exit(main())
