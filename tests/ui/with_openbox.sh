#!/bin/sh
# Runs a command on the current X display under the openbox window manager, as a user's desktop
# would: windows get frames, placement and the work area (_NET_WORKAREA) a real session gives.
# Usage (inside xvfb-run): with_openbox.sh COMMAND [ARGS...]. Exits with the command's status.
if ! command -v openbox >/dev/null 2>&1; then
  echo "with_openbox.sh: openbox is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
ROPESCOPE_WINDOW_MANAGER=openbox
export ROPESCOPE_WINDOW_MANAGER
openbox --sm-disable >/dev/null 2>&1 &
wm=$!
# Waits until openbox has taken the screen (it sets _NET_SUPPORTING_WM_CHECK on the root
# window); the loop ends on that event, or if openbox died.
while ! xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do
  if ! kill -0 "$wm" 2>/dev/null; then
    echo "with_openbox.sh: openbox did not start" >&2
    exit 1
  fi
  sleep 0.1
done
"$@"
status=$?
kill "$wm" 2>/dev/null
wait "$wm" 2>/dev/null
exit $status
