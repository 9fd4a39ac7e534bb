import sys

from jaxerr_ls.extract import main

sys.exit(main(sys.argv[1:]))
