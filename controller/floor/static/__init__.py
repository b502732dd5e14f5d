"""Static assets of the floor page (a package so that setuptools ships them with the wheel)."""
