# Microsoft FreeCell deals (classic dialect) as 8 columns of lower-case suit-first cards (dj c10 ...),
# each deal after a "Hand N" header.  Numbers are read from stdin, one per line:
#   awk -f freecell.awk            (stream)      awk -v n=617 -f freecell.awk   (one deal)
# 214013 * state < 2^53, so the arithmetic is exact in awk's doubles.
function deal(num,    deck, dealt, state, left, k, p, c, line, i) {
    for (i = 0; i < 52; i++) deck[i] = i
    state = num
    for (left = 52; left > 0; left--) {
        state = (214013 * state + 2531011) % 2147483648
        k = int(state / 65536) % left
        dealt[52 - left] = deck[k]
        deck[k] = deck[left - 1]
    }
    print "Hand " num
    for (c = 0; c < 8; c++) {
        line = ""
        for (p = c; p < 52; p += 8)
            line = line (line == "" ? "" : " ") substr("cdhs", dealt[p] % 4 + 1, 1) rank[int(dealt[p] / 4)]
        print line
    }
    fflush()
}
BEGIN {
    split("a 2 3 4 5 6 7 8 9 10 j q k", r, " ")
    for (i = 1; i <= 13; i++) rank[i - 1] = r[i]
    if (n != "") { deal(n); exit }
}
/[0-9]/ { deal($1 + 0) }
