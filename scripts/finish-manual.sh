#!/bin/sh
# Finishes the man page that swift-argument-parser's generate-manual writes (stdin to stdout):
# - a blank line (a paragraph break in a command's discussion) becomes .Pp, as mdoc wants
#   (groff -ww -mandoc warns of empty input lines);
# - the generic ".Ex -std" becomes the real list of exit statuses.
# Keep the list in step with the exit codes in Sources/lyricposter/LyricPosterCommand.swift.
set -eu
awk '
/^$/ { if (last != ".Pp") print ".Pp"; last = ".Pp"; next }
/^\.Ex -std/ {
    print ".Bl -tag -width 6n"
    print ".It 0"
    print "Done."
    print ".It 1"
    print "An input or output could not be used: the one-line error names the file and the reason, and nothing is half written."
    print ".It 3"
    print "catalog: some songs failed; the rest are done (see its report)."
    print ".It 64"
    print "A usage error: an unknown command or option, a bad flag value, inputs in the wrong order."
    print ".It 130"
    print "Interrupted (Ctrl-C); batches resume where they stopped when run again."
    print ".El"
    last = ".El"; next
}
{ print; last = $0 }
'
