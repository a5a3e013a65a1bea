"""Where the shipped resources (samples/, models/) of an installed ropescope are: the
package sits in PREFIX/lib/python3/dist-packages/ropescope, the resources in
PREFIX/share/ropescope. The build tree replaces this file with its source folder's path."""

import os


def resource_folder():
    env = os.environ.get("ROPESCOPE_RESOURCES")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, "..", "..", "..", ".."))
    folder = os.path.join(prefix, "share", "ropescope")
    return folder if os.path.isdir(folder) else None
