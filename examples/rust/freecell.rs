//! Microsoft FreeCell deals (classic dialect) as canonical lines, read from stdin one number a
//! line.  Build: rustc -O freecell.rs.  Output is flushed whenever a batch of input is done.
use std::io::{self, BufRead, Write};

const RANKS: &[u8] = b"A23456789TJQK";
const SUITS: &[u8] = b"CDHS";

fn deal(n: u32, out: &mut Vec<u8>) {
    let mut deck: Vec<u8> = (0..52).collect();
    let mut state = n;
    for left in (1..=52u32).rev() {
        state = state.wrapping_mul(214013).wrapping_add(2531011) & 0x7fff_ffff;
        let k = ((state >> 16) % left) as usize;
        let card = deck[k];
        deck[k] = deck[left as usize - 1];
        out.push(RANKS[card as usize / 4]);
        out.push(SUITS[card as usize % 4]);
        out.push(if left == 1 { b'\n' } else { b' ' });
    }
}

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut stdout = io::stdout().lock();
    let mut out = Vec::with_capacity(1 << 20);
    let mut pending: Vec<u8> = Vec::new();
    loop {
        // fill_buf blocks only once everything read so far is used: flush before that.
        stdout.write_all(&out).unwrap();
        stdout.flush().unwrap();
        out.clear();
        let buf = input.fill_buf().unwrap();
        if buf.is_empty() {
            break;
        }
        let size = buf.len();
        pending.extend_from_slice(buf);
        input.consume(size);
        let mut start = 0;
        while let Some(end) = pending[start..].iter().position(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(&pending[start..start + end]).trim().to_string();
            start += end + 1;
            match text.parse::<u32>() {
                Ok(n) if (1..=0x7fff_ffff).contains(&n) => deal(n, &mut out),
                _ if text.is_empty() => {}
                _ => {
                    eprintln!("not a deal number (1 ... 2147483647): {}", text);
                    std::process::exit(2);
                }
            }
        }
        pending.drain(..start);
    }
}
