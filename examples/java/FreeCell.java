// Microsoft FreeCell deals (classic dialect) as 7 rows, with suit symbols and 10 for ten.
//   javac FreeCell.java && java FreeCell N
public final class FreeCell {
    private static final String[] RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
    private static final String[] SUITS = {"♣", "♦", "♥", "♠"};

    static String deal(long n) {
        int[] deck = new int[52];
        for (int i = 0; i < 52; i++) deck[i] = i;
        StringBuilder out = new StringBuilder("Deal ").append(n).append(":\n");
        long state = n;
        for (int left = 52, p = 0; left > 0; left--, p++) {
            state = (214013L * state + 2531011L) % 2147483648L;
            int k = (int) ((state >> 16) % left);
            int card = deck[k];
            deck[k] = deck[left - 1];
            out.append(RANKS[card / 4]).append(SUITS[card % 4]);
            out.append(p % 8 == 7 || p == 51 ? "\n" : " ");
        }
        return out.toString();
    }

    public static void main(String[] args) {
        long n;
        try {
            n = Long.parseLong(args[0]);
        } catch (RuntimeException e) {
            n = 0;
        }
        if (n < 1 || n > 2147483647L) {
            System.err.println("usage: java FreeCell N (1 ... 2147483647)");
            System.exit(2);
        }
        System.out.print(deal(n));
    }
}
