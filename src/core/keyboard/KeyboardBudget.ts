import type { Logger } from 'pino';
import type { Store } from '../../store/Store.js';
import type { KeyboardDoorPolicy, KeyboardDoorState } from './KeyboardDoorPolicy.js';
import { learnBaseline } from './learnBaseline.js';
import { type SurgeState, nextSurge } from './nextSurge.js';
import { type KeyboardRate, SHARE_FLOOR, surgeLevels } from './surgeLevels.js';

/** Minutes of the budget's clock in its hour (the per-client budget's window, the baseline's snapshots). */
const MINUTES_PER_HOUR = 60;
/** How many times a minute every watched site's counts are read from the store. */
const READS_PER_MINUTE = 12;
/** Fixed-point scale of a baseline kept in a store counter (which holds whole numbers). */
const SNAPSHOT_SCALE = 1000;

/** One site's door as the dashboard shows it. */
export interface KeyboardDoorView {
  site: string;
  door: KeyboardDoorState;
  mode: KeyboardDoorPolicy['door'];
  /** Since when the site has been in a surge, or out of one (epoch ms). */
  since: number;
  /** Keyboard tokens over the last minute, and their share of all tokens. */
  rate: number;
  share: number;
  /** The learned baseline, and where a surge begins. */
  base: KeyboardRate;
  level: KeyboardRate;
}

interface Watch {
  policy: KeyboardDoorPolicy;
  state: SurgeState;
  base: KeyboardRate;
  /** The minute of `cur` and the counts of it and the minute before, as last read or incremented. */
  minute: number;
  cur: { keyboard: number; all: number };
  prev: { keyboard: number; all: number };
  /** The last closed minute learned into `base`. */
  learned: number;
  /** The last reading of the sliding minute. */
  reading: KeyboardRate;
  /** Whether the store's snapshot of the baseline was looked for (at the first refresh: issuing a challenge reads nothing). */
  restored: boolean;
}

/**
 * The keyboard budget of every site, over every node: keyboard tokens (keyboard solves the
 * people-first model accepts, whichever model then judged them) and all tokens are counted per
 * site and minute in the store's counters, which every node adds to and reads; each node reads
 * them READS_PER_MINUTE times a minute, and on each token it counts, and keeps its own view of
 * each site's surge state (nextSurge) and baseline (learnBaseline; a snapshot is kept in the store
 * every hour, which a node starting reads). A client's keyboard tokens are counted per hour.
 * Counting never fails a request: a store that does not answer leaves the view as it was. /verify
 * awaits it (one batched store increment per token, two for a keyboard pass), so that a client's
 * next solve meets the count of its last.
 * `minuteMs` is the budget's minute (KEYBOARD_BUDGET_MINUTE_MS: 60 s, shorter only to compress
 * time in a bench); `now` is the clock (injectable for tests).
 */
export class KeyboardBudget {
  readonly #store: Store;
  readonly #minuteMs: number;
  readonly #now: () => number;
  readonly #log: Logger | undefined;
  readonly #watches = new Map<string, Watch>();
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(store: Store, opts: { minuteMs: number; now: () => number; log?: Logger | undefined; timer?: boolean }) {
    this.#store = store;
    this.#minuteMs = opts.minuteMs;
    this.#now = opts.now;
    this.#log = opts.log;
    if (opts.timer !== false) {
      this.#timer = setInterval(() => void this.refresh(), Math.max(50, Math.floor(opts.minuteMs / READS_PER_MINUTE)));
      this.#timer.unref();
    }
  }

  /** The door of `site` (its label: siteLabel) under `policy` now: its pinned mode, else surge or people first. */
  doorOf(site: string, policy: KeyboardDoorPolicy): KeyboardDoorState {
    return doorOfWatch(this.#watch(site, policy));
  }

  /**
   * Counts a token of `site`: `keyboard` when it is a keyboard solve the people-first model
   * accepted (minted or not). Resolves once counted; never rejects.
   */
  async countToken(site: string, policy: KeyboardDoorPolicy, keyboard: boolean): Promise<void> {
    const watch = this.#watch(site, policy);
    const now = this.#now();
    const minute = Math.floor(now / this.#minuteMs);
    const life = this.#minuteLife(minute, now);
    try {
      const [all, kb] = await Promise.all([
        this.#store.increment(allKey(site, minute), life),
        keyboard ? this.#store.increment(keyboardKey(site, minute), life) : undefined,
      ]);
      this.#seen(watch, minute, kb, all);
      this.#judge(site, watch, now);
    } catch (e) {
      this.#log?.warn({ err: e, site_key: site }, 'keyboard budget: count not kept');
    }
  }

  /** Whether `binding` has passed its hour's keyboard budget (a store that cannot answer: yes, fail closed). */
  async clientOver(binding: string, policy: KeyboardDoorPolicy): Promise<boolean> {
    if (policy.clientPerHour === 0) return false;
    const hour = this.#hour();
    const count = await this.#store.increment(clientKey(binding, hour), this.#hourLife(hour), 0).catch(() => Infinity);
    return count >= policy.clientPerHour;
  }

  /** Counts a keyboard token of `binding` against its hour's budget. Never rejects. */
  async countClient(binding: string, policy: KeyboardDoorPolicy): Promise<void> {
    if (policy.clientPerHour === 0) return;
    const hour = this.#hour();
    await this.#store.increment(clientKey(binding, hour), this.#hourLife(hour)).catch(() => undefined);
  }

  /** Reads every watched site's counts, learns the minutes closed since, and judges each. */
  async refresh(): Promise<void> {
    const now = this.#now();
    const minute = Math.floor(now / this.#minuteMs);
    await Promise.all(
      [...this.#watches].map(async ([site, watch]) => {
        try {
          if (!watch.restored) {
            watch.restored = true;
            await this.#restore(site, watch);
          }
          const [kb, all, prevKb, prevAll] = await Promise.all([
            this.#store.increment(keyboardKey(site, minute), 0, 0),
            this.#store.increment(allKey(site, minute), 0, 0),
            this.#store.increment(keyboardKey(site, minute - 1), 0, 0),
            this.#store.increment(allKey(site, minute - 1), 0, 0),
          ]);
          if (watch.minute < minute) this.#turn(watch, minute);
          watch.prev = { keyboard: Math.max(watch.prev.keyboard, prevKb), all: Math.max(watch.prev.all, prevAll) };
          this.#seen(watch, minute, kb, all);
          this.#learn(site, watch, minute);
          this.#judge(site, watch, now);
        } catch (e) {
          this.#log?.warn({ err: e, site_key: site }, 'keyboard budget: counts not read');
        }
      }),
    );
  }

  /** Every watched site's door, for the dashboard. */
  view(): KeyboardDoorView[] {
    return [...this.#watches].map(([site, w]) => ({
      site,
      door: doorOfWatch(w),
      mode: w.policy.door,
      since: w.state.since,
      rate: w.reading.rate,
      share: w.reading.share,
      base: w.base,
      level: surgeLevels(w.base, w.policy),
    }));
  }

  /**
   * Every watched site's door, and every site in `listed` (its label and policy: the sites file's
   * sites), which this budget watches from then on: each serving thread keeps its own budget, so
   * without the list a thread that has not served a site would leave it out of the dashboard. A
   * site watched here for the first time is read from the store before it is shown. Never rejects.
   */
  async viewWith(listed: readonly (readonly [string, KeyboardDoorPolicy])[]): Promise<KeyboardDoorView[]> {
    const fresh = listed.some(([site]) => !this.#watches.has(site));
    for (const [site, policy] of listed) this.#watch(site, policy);
    if (fresh) await this.refresh();
    return this.view();
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  #watch(site: string, policy: KeyboardDoorPolicy): Watch {
    let watch = this.#watches.get(site);
    if (watch === undefined) {
      const now = this.#now();
      const minute = Math.floor(now / this.#minuteMs);
      watch = {
        policy,
        state: { surge: false, since: now, calmSince: undefined },
        base: { rate: policy.floorPerMinute, share: SHARE_FLOOR },
        minute,
        cur: { keyboard: 0, all: 0 },
        prev: { keyboard: 0, all: 0 },
        learned: minute - 1,
        reading: { rate: 0, share: 0 },
        restored: false,
      };
      this.#watches.set(site, watch);
    }
    // A reloaded sites file may change the policy: the newest one read applies.
    watch.policy = policy;
    return watch;
  }

  /** Counts of `minute` as a call returned them (undefined: not read); a later minute starts a new one. */
  #seen(watch: Watch, minute: number, keyboard: number | undefined, all: number): void {
    if (minute < watch.minute) return;
    if (minute > watch.minute) this.#turn(watch, minute);
    watch.cur = { keyboard: Math.max(watch.cur.keyboard, keyboard ?? 0), all: Math.max(watch.cur.all, all) };
  }

  #turn(watch: Watch, minute: number): void {
    watch.prev = minute === watch.minute + 1 ? watch.cur : { keyboard: 0, all: 0 };
    watch.cur = { keyboard: 0, all: 0 };
    watch.minute = minute;
  }

  /** The sliding minute: this minute's counts plus the part of the last one it has not yet replaced. */
  #judge(site: string, watch: Watch, now: number): void {
    const gone = (now - watch.minute * this.#minuteMs) / this.#minuteMs;
    const keep = Math.max(0, 1 - gone);
    const keyboard = watch.cur.keyboard + watch.prev.keyboard * keep;
    const all = watch.cur.all + watch.prev.all * keep;
    watch.reading = { rate: keyboard, share: all > 0 ? keyboard / all : 0 };
    const next = nextSurge(watch.state, watch.reading, watch.base, watch.policy, now, this.#minuteMs);
    if (next.surge !== watch.state.surge && watch.policy.door === 'auto') {
      const level = surgeLevels(watch.base, watch.policy);
      this.#log?.warn(
        {
          site_key: site,
          door: next.surge ? 'surge' : 'people_first',
          rate: watch.reading.rate,
          share: watch.reading.share,
          base: watch.base,
          level,
        },
        next.surge ? 'keyboard surge began' : 'keyboard surge ended',
      );
    }
    watch.state = next;
  }

  /**
   * Learns the minute just closed (once), in a surge too: a site whose own keyboard traffic starts
   * above the floor's surge level must be able to learn it (within hours), and a flood raises the
   * baseline no faster than BASELINE_RISE_PER_HOUR. Snapshots the baseline each hour.
   */
  #learn(site: string, watch: Watch, minute: number): void {
    if (watch.learned >= minute - 1) return;
    watch.base = learnBaseline(watch.base, watch.prev, watch.policy);
    watch.learned = minute - 1;
    if (minute % MINUTES_PER_HOUR === 0) void this.#snapshot(site, watch, minute / MINUTES_PER_HOUR);
  }

  /** The first node to reach an hour keeps its baseline for it (a consume marker elects it). */
  async #snapshot(site: string, watch: Watch, hour: number): Promise<void> {
    const now = this.#now();
    const life = 3 * MINUTES_PER_HOUR * this.#minuteMs;
    try {
      const first = await this.#store.consume(snapshotKey(site, hour), { issuedAt: now, expiresAt: now + life });
      if (first !== 'fresh') return;
      await Promise.all([
        this.#store.increment(`${snapshotKey(site, hour)}:rate`, life, Math.round(watch.base.rate * SNAPSHOT_SCALE)),
        this.#store.increment(`${snapshotKey(site, hour)}:share`, life, Math.round(watch.base.share * SNAPSHOT_SCALE)),
      ]);
    } catch (e) {
      this.#log?.warn({ err: e, site_key: site }, 'keyboard budget: baseline not kept');
    }
  }

  /** A node that starts takes the newest snapshot of the last two hours, when there is one. */
  async #restore(site: string, watch: Watch): Promise<void> {
    const hour = this.#hour();
    for (const h of [hour, hour - 1]) {
      const [rate, share] = await Promise.all([
        this.#store.increment(`${snapshotKey(site, h)}:rate`, 0, 0),
        this.#store.increment(`${snapshotKey(site, h)}:share`, 0, 0),
      ]).catch(() => [0, 0]);
      if (rate! > 0) {
        watch.base = {
          rate: Math.max(watch.policy.floorPerMinute, rate! / SNAPSHOT_SCALE),
          share: Math.max(SHARE_FLOOR, share! / SNAPSHOT_SCALE),
        };
        return;
      }
    }
  }

  #hour(): number {
    return Math.floor(this.#now() / (this.#minuteMs * MINUTES_PER_HOUR));
  }

  /** A minute's counters live until two minutes after it ends (read as the last minute, then gone). */
  #minuteLife(minute: number, now: number): number {
    return (minute + 3) * this.#minuteMs - now;
  }

  #hourLife(hour: number): number {
    return (hour + 1) * this.#minuteMs * MINUTES_PER_HOUR - this.#now();
  }
}

/** A pinned mode, else surge or people first by the surge state. */
function doorOfWatch(w: Watch): KeyboardDoorState {
  if (w.policy.door !== 'auto') return w.policy.door;
  return w.state.surge ? 'surge' : 'people_first';
}

const keyboardKey = (site: string, minute: number) => `kbd:${site}:${minute}:k`;
const allKey = (site: string, minute: number) => `kbd:${site}:${minute}:t`;
const clientKey = (binding: string, hour: number) => `kbd-client:${binding}:${hour}`;
const snapshotKey = (site: string, hour: number) => `kbd-base:${site}:${hour}`;
