"""IPython, Jupyter and Colab (`%load_ext jaxerr_ls`) and plain Python (`jaxerr_ls.install()`)."""
