#!/bin/sh
# A stream dealer that answers from a file of canonical lines, one deal per stdin line, then exits
# (status 0, saying nothing): `quits_after.sh count LINES` after answering 100 deals,
# `quits_after.sh number LINES` when asked for a deal above 100.
how=$1
lines=$2
answered=0
while read -r deal; do
  if [ "$how" = count ]; then k=$answered; else k=$((deal - 1)); fi
  [ "$k" -ge 100 ] && exit 0
  sed -n "${deal}p" "$lines"
  answered=$((answered + 1))
done
