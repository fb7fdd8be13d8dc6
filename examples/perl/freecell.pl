#!/usr/bin/perl
# Microsoft FreeCell deals (classic dialect) as JSON rows, e.g. [["JD","2D",...],...,["..."]].
#   perl freecell.pl N     print deal N
#   perl freecell.pl       read deal numbers from stdin, one per line (output flushed per deal)
use strict;
use warnings;

my @RANKS = split //, "A23456789TJQK";
my @SUITS = split //, "CDHS";

sub deal {
    my ($n) = @_;
    my @deck = (0 .. 51);
    my @dealt;
    my $state = $n;
    for (my $left = 52; $left > 0; $left--) {
        $state = (214013 * $state + 2531011) % 2147483648;
        my $k = int($state / 65536) % $left;
        push @dealt, $deck[$k];
        $deck[$k] = $deck[$left - 1];
    }
    my @names = map { '"' . $RANKS[int($_ / 4)] . $SUITS[$_ % 4] . '"' } @dealt;
    my @rows = map { '[' . join(',', @names[$_ * 8 .. ($_ * 8 + 7 < 51 ? $_ * 8 + 7 : 51)]) . ']' } 0 .. 6;
    return '[' . join(',', @rows) . "]\n";
}

sub number {
    my ($text) = @_;
    $text =~ s/^\s+|\s+$//g;
    die "not a deal number (1 ... 2147483647): $text\n" unless $text =~ /^\d+$/ && $text >= 1 && $text <= 2147483647;
    return $text;
}

$| = 1;
if (@ARGV) {
    print deal(number($ARGV[0]));
} else {
    while (my $line = <STDIN>) {
        next unless $line =~ /\S/;
        print deal(number($line));
    }
}
