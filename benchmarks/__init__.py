"""Speed measurements (``boardgames bench``)."""
