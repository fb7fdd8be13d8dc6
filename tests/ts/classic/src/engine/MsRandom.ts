import type { Shuffler } from '@models';

/** Microsoft C runtime's rand(), as FreeCell seeds it with the deal number. */
export class MsRandom implements Shuffler {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (Math.imul(214013, this.state) + 2531011) >>> 0;
    return (this.state >>> 16) & 0x7fff;
  }
}
