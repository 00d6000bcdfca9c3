# SPDX-License-Identifier: BSD-3-Clause
# The commands the docs tell a user to run: every logical line of their fenced ```sh blocks.
# A logical line joins backslash continuations (the next line's indentation becomes one space);
# a trailing `# comment` is dropped (a # that starts a word outside quotes), and so are blank and
# comment-only lines. A heredoc's body and terminator are not commands: they follow their command
# as "body" records, for the runner.
# Output, one record per line, tab-separated: FILE LINE KIND TEXT, where KIND is "command" or
# "body" and LINE is the command's first line in FILE.
# Usage: awk -f commands.awk FILE...  (FILE as it should be named in messages)

# The text before a comment that starts a word outside quotes, trailing blanks removed.
function uncomment(s,    i, c, q, out, prev) {
  q = ""; out = ""; prev = " "
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (q == "") {
      if (c == "#" && (prev == " " || prev == "\t")) break
      if (c == "'" || c == "\"") q = c
      else if (c == "\\" && i < length(s)) { out = out c; i++; c = substr(s, i, 1) }
    } else if (c == q) {
      q = ""
    } else if (q == "\"" && c == "\\" && i < length(s)) {
      out = out c; i++; c = substr(s, i, 1)
    }
    out = out c; prev = c
  }
  sub(/[ \t]+$/, "", out)
  return out
}

function emit(kind, line, text) { printf "%s\t%d\t%s\t%s\n", FILENAME, line, kind, text }

FNR == 1 { fence = ""; pending = ""; heredoc = "" }

# A fence opens or closes a block; only ```sh blocks hold commands.
/^[ \t]*```/ {
  if (fence == "") {
    fence = $0; sub(/^[ \t]*```[ \t]*/, "", fence); sub(/[ \t]+$/, "", fence)
    if (fence == "") fence = "(none)"
  } else {
    fence = ""; pending = ""; heredoc = ""
  }
  next
}
fence != "sh" { next }

heredoc != "" {
  emit("body", start, $0)
  line = $0
  if (strip_tabs) sub(/^\t+/, "", line)
  if (line == heredoc) heredoc = ""
  next
}

{
  text = uncomment($0)
  if (pending == "") start = FNR
  else sub(/^[ \t]+/, "", text)
  if (text ~ /(^|[^\\])(\\\\)*\\$/) {
    sub(/\\$/, "", text); sub(/[ \t]+$/, "", text)
    pending = pending text " "
    next
  }
  text = pending text
  pending = ""
  if (text == "") next
  emit("command", start, text)
  if (match(text, /<<-?[ \t]*['"]?[A-Za-z_][A-Za-z0-9_]*/)) {
    word = substr(text, RSTART, RLENGTH)
    strip_tabs = word ~ /^<<-/
    sub(/^<<-?[ \t]*['"]?/, "", word)
    heredoc = word
  }
}
