"""Cursor -> qualified API name: the file's imports first, jedi only when they cannot tell."""

from jaxerr_ls.resolve.imports import scan_imports
from jaxerr_ls.resolve.names import DottedName, dotted_at, public_name, qualify, worth_inferring

__all__ = ["DottedName", "dotted_at", "public_name", "qualify", "scan_imports", "worth_inferring"]
