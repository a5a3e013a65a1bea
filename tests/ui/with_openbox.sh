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
# Waits until openbox has taken the screen (it sets _NET_SUPPORTING_WM_CHECK on the root
# window); the loop ends on that event, or when openbox dies. Openbox once died at start in CI
# beside another test's session (its message was not kept): it is started again, up to three
# times, and its own words are printed if it never comes up.
log=$(mktemp)
tries=0
while :; do
  openbox --sm-disable >"$log" 2>&1 &
  wm=$!
  while kill -0 "$wm" 2>/dev/null; do
    if xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; then
      break 2
    fi
    sleep 0.1
  done
  tries=$((tries + 1))
  if [ "$tries" -ge 3 ]; then
    echo "with_openbox.sh: openbox did not start (3 tries); it said: $(tail -n 5 "$log")" >&2
    rm -f "$log"
    exit 1
  fi
done
rm -f "$log"
"$@"
status=$?
kill "$wm" 2>/dev/null
wait "$wm" 2>/dev/null
exit $status
