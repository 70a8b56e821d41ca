import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { workNotBefore } from '../../domain/orders/early-start';
import type {
  DeliveryMethod,
  Format,
  PriceListDocument,
  Quality,
  ReelSize,
  Resolution,
  SupportType,
} from '../../domain/pricing/default-price-list';
import { IMAGE_SUPPORTS, TAPE_OR_REEL_SUPPORTS } from '../../domain/pricing/default-price-list';
import { type LineChoice, type PriceBreakdown, type PricedLine, priceOrder } from '../../domain/pricing/pricing';
import { CITIES, CITY_WEIGHTS, FIRST_NAMES, LAST_NAMES } from './demo-names';
import { createRandom, type Random } from './random';

/*
 * Demo data, generated without I/O: customers, then orders one at a time with their items, history,
 * payment, invoice and credit note, numbered from the counters read in the database. The same seed
 * value gives the same data (names, amounts, statuses, dates relative to `now`); ids are random so
 * that a second run (--force) never collides with the first.
 */

export const DEMO_PASSWORD = 'souvenirs-demo';
export const DEMO_EMAIL_DOMAIN = 'example.fr';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Orders are spread over the last 18 months. */
export const DEMO_SPAN_DAYS = 548;

export type OrderStatus = 'pending' | 'processing' | 'completed' | 'shipped' | 'canceled';
export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'refunded';
export type WorkshopStage = 'awaiting_originals' | 'received' | 'digitising' | 'quality_check' | 'ready';
export type PaymentMethod = 'card' | 'transfer' | 'cheque';

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  street: string;
  postalCode: string;
  city: string;
}

export interface DemoCustomer extends Person {
  id: string;
  emailVerified: boolean;
  createdAt: number;
}

export interface DemoEvent {
  at: number;
  actor: string;
  kind: string;
  from: string | null;
  to: string | null;
  data: Record<string, unknown> | null;
}

export interface DemoDocument {
  id: string;
  number: string;
  issuedAt: number;
}

export interface DemoOrder {
  id: string;
  number: string;
  createdAt: number;
  updatedAt: number;
  customer: DemoCustomer | null;
  guest: (Person & { accessTokenHash: string }) | null;
  status: OrderStatus;
  /** The workshop stage, as the lifecycle's transitions leave it for the order's status. */
  stage: WorkshopStage;
  paymentStatus: PaymentStatus;
  paymentMethod: PaymentMethod;
  deliveryMethod: DeliveryMethod;
  sendMethod: 'self' | 'label';
  returnOriginals: boolean;
  items: PricedLine[];
  price: PriceBreakdown;
  earlyStartConsentAt: number | null;
  paidAt: number | null;
  events: DemoEvent[];
  payment: {
    id: string;
    providerRef: string;
    status: 'paid' | 'failed' | 'refunded';
    createdAt: number;
    updatedAt: number;
  } | null;
  /** When the payment was refunded (a credit note is issued then). */
  refundedAt: number | null;
  /** Set when its invoice is numbered (after the order itself is yielded). */
  invoiceId: string | null;
  invoiceNumber: string | null;
}

/** Last number used per year, as read from (and to be written back to) the counter tables. */
export type Counters = Map<number, number>;

export interface DemoOptions {
  orders: number;
  seed: string | number;
  now: number;
  priceList: PriceListDocument;
  /** E-mails already in the database, not to be reused. */
  takenEmails?: ReadonlySet<string>;
  orderCounters?: Counters;
  invoiceCounters?: Counters;
  creditNoteCounters?: Counters;
  /** Who changes statuses in the history: an administrator's id, or `system`. */
  staffActor?: string;
}

/**
 * Records in an order that respects the foreign keys: customers come first (DemoPlan.customers),
 * then an order before its invoice, an invoice before its credit note.
 */
export type DemoRecord =
  | { kind: 'order'; order: DemoOrder }
  | { kind: 'invoice'; order: DemoOrder; document: DemoDocument }
  | { kind: 'creditNote'; order: DemoOrder; document: DemoDocument & { invoiceId: string } };

export interface DemoPlan {
  customers: DemoCustomer[];
  orderCount: number;
  /**
   * The orders and their documents, generated one at a time so that memory stays small whatever
   * the number of orders. Can be iterated once; the counters below are final when it ends.
   */
  records: Iterable<DemoRecord>;
  orderCounters: Counters;
  invoiceCounters: Counters;
  creditNoteCounters: Counters;
}

export function formatNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}

// biome-ignore format: a table reads better on one line per support
const TYPE_WEIGHTS: Record<SupportType, number> = {
  photos: 34, slides: 14, ektachromes: 4, negatives: 10, 'plaques-de-verre': 2,
  vhs: 14, 'vhs-c': 4, minidv: 4, film: 7, documents: 5, journaux: 2,
};

/** Realistic quantity ranges per support (photos by the hundred, tapes by the unit). */
// biome-ignore format: a table reads better on one line per support
const QUANTITIES: Record<SupportType, [number, number]> = {
  photos: [50, 2000], slides: [30, 1500], ektachromes: [20, 600], negatives: [24, 1200],
  'plaques-de-verre': [3, 150], vhs: [1, 20], 'vhs-c': [1, 10], minidv: [1, 15], film: [1, 12],
  documents: [10, 400], journaux: [5, 150],
};

const ITEM_COUNT_WEIGHTS = { '1': 58, '2': 28, '3': 11, '4': 3 };
const RESOLUTION_WEIGHTS: Record<Resolution, number> = { '2400dpi': 60, '3600dpi': 28, '4800dpi': 12 };
const FORMAT_WEIGHTS: Record<Format, number> = { jpeg: 78, tif: 22 };
const QUALITY_WEIGHTS: Record<Quality, number> = { standard: 78, premium: 22 };
const REEL_WEIGHTS: Record<ReelSize, number> = { small: 45, medium: 38, large: 17 };
const DELIVERY_WEIGHTS: Record<DeliveryMethod, number> = { digital: 62, usb: 27, disc: 11 };
const PAYMENT_METHOD_WEIGHTS: Record<PaymentMethod, number> = { card: 85, transfer: 10, cheque: 5 };
const SCENARIO_WEIGHTS = { normal: 91, failed: 4, abandoned: 3, refunded: 2 };
/** Orders by hour of the day (French time): evenings and lunch breaks. */
const HOUR_WEIGHTS = [1, 0.5, 0.3, 0.2, 0.2, 0.3, 1, 2, 4, 6, 7, 7, 8, 8, 7, 7, 7, 7, 8, 9, 10, 9, 6, 3];
const RESTORABLE: readonly SupportType[] = ['photos', 'slides', 'ektachromes', 'negatives', 'plaques-de-verre'];

const slugs = new Map<string, string>();
function slug(value: string): string {
  let cached = slugs.get(value);
  if (cached === undefined) {
    cached = slugify(value);
    slugs.set(value, cached);
  }
  return cached;
}

function slugify(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function makePeople(random: Random, taken: ReadonlySet<string>) {
  // Next suffix per name: camille.martin@, then camille.martin2@, camille.martin3@...
  const suffixes = new Map<string, number>();
  return (): Person => {
    const firstName = random.pick(FIRST_NAMES);
    const lastName = random.pick(LAST_NAMES);
    const local = `${slug(firstName)}.${slug(lastName)}`;
    let n = suffixes.get(local) ?? 1;
    let email = n === 1 ? `${local}@${DEMO_EMAIL_DOMAIN}` : `${local}${n}@${DEMO_EMAIL_DOMAIN}`;
    while (taken.has(email)) email = `${local}${++n}@${DEMO_EMAIL_DOMAIN}`;
    suffixes.set(local, n + 1);
    const city = CITIES[random.weighted(CITY_WEIGHTS)];
    const pair = () => String(random.int(0, 99)).padStart(2, '0');
    return {
      firstName,
      lastName,
      email,
      phone: `0${random.chance(0.7) ? 6 : 7} ${pair()} ${pair()} ${pair()} ${pair()}`,
      street: `${random.logInt(1, 180)}${random.chance(0.05) ? ' bis' : ''} ${random.pick(city.streets)}`,
      postalCode: random.pick(city.postalCodes),
      city: city.city,
    };
  };
}

/** Order times over the last 18 months: growing activity, a Christmas peak, a summer dip. */
function orderTimes(random: Random, count: number, now: number): Float64Array {
  const today = Math.floor(now / DAY) * DAY;
  const cumulative: number[] = [];
  let total = 0;
  for (let d = 0; d < DEMO_SPAN_DAYS; d++) {
    const day = new Date(today - (DEMO_SPAN_DAYS - 1 - d) * DAY);
    const month = day.getUTCMonth();
    const season = month === 10 || month === 11 ? 1.5 : month === 6 || month === 7 ? 0.75 : 1;
    const weekday = day.getUTCDay() === 0 ? 0.6 : 1;
    total += (0.6 + (0.8 * d) / DEMO_SPAN_DAYS) * season * weekday;
    cumulative.push(total);
  }
  const hourTotal = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
  // A typed array sorts numerically in native code, ten times faster than an array with a comparator.
  const times = new Float64Array(count);
  let filled = 0;
  while (filled < count) {
    const target = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    let h = random.next() * hourTotal;
    let hour = 0;
    while (hour < 23 && h >= (HOUR_WEIGHTS[hour] as number)) h -= HOUR_WEIGHTS[hour++] as number;
    // Paris is one or two hours ahead of UTC: one is close enough for demo data.
    const at = today - (DEMO_SPAN_DAYS - 1 - lo) * DAY + (hour - 1) * HOUR + Math.floor(random.next() * HOUR);
    if (at <= now) times[filled++] = at;
  }
  return times.sort();
}

function makeItems(random: Random): LineChoice[] {
  const count = Number(random.weighted(ITEM_COUNT_WEIGHTS));
  const types = new Set<SupportType>();
  while (types.size < count) types.add(random.weighted(TYPE_WEIGHTS));
  const quality = random.weighted(QUALITY_WEIGHTS);
  return [...types].map((type) => {
    const [min, max] = QUANTITIES[type];
    const quantity = random.logInt(min, max);
    const isImage = IMAGE_SUPPORTS.includes(type);
    return {
      type,
      quantity,
      quality,
      resolution: isImage ? random.weighted(RESOLUTION_WEIGHTS) : null,
      format: isImage ? random.weighted(FORMAT_WEIGHTS) : null,
      restoration: RESTORABLE.includes(type) && random.chance(0.12) ? random.logInt(1, Math.min(quantity, 40)) : 0,
      denoise: TAPE_OR_REEL_SUPPORTS.includes(type) && random.chance(0.35),
      reelSize: type === 'film' ? random.weighted(REEL_WEIGHTS) : null,
    };
  });
}

function yearOf(at: number): number {
  return new Date(at).getUTCFullYear();
}

/** Documents waiting for their number: a min-heap on (date, arrival). */
class DocumentQueue {
  private heap: { at: number; seq: number; order: DemoOrder }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, order: DemoOrder): void {
    const heap = this.heap;
    heap.push({ at, seq: this.seq++, order });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest entry, if dated at or before `until`. */
  popUntil(until: number): { at: number; order: DemoOrder } | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (!top || top.at > until) return undefined;
    const last = heap.pop() as (typeof heap)[number];
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && this.less(left, smallest)) smallest = left;
        if (right < heap.length && this.less(right, smallest)) smallest = right;
        if (smallest === i) break;
        this.swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a] as { at: number; seq: number };
    const y = this.heap[b] as { at: number; seq: number };
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const heap = this.heap;
    [heap[a], heap[b]] = [heap[b] as (typeof heap)[number], heap[a] as (typeof heap)[number]];
  }
}

function nextNumber(prefix: string, at: number, counters: Counters): string {
  const year = yearOf(at);
  const next = (counters.get(year) ?? 0) + 1;
  counters.set(year, next);
  return formatNumber(prefix, year, next);
}

export function planDemoData(options: DemoOptions): DemoPlan {
  const { now } = options;
  const random = createRandom(options.seed);
  const person = makePeople(random, options.takenEmails ?? new Set());

  // About one registered customer per three orders.
  const customers: DemoCustomer[] = Array.from({ length: Math.max(1, Math.round(options.orders / 3)) }, () =>
    Object.assign(person(), {
      id: randomUUID(),
      emailVerified: random.chance(0.9),
      createdAt: Number.POSITIVE_INFINITY,
    }),
  );

  // Who places each order is drawn first, so that accounts (written before the orders) can be
  // dated before their first order. -1: a guest.
  const times = orderTimes(random, options.orders, now);
  const buyers = new Int32Array(times.length);
  times.forEach((at, i) => {
    const index = random.chance(0.12) ? -1 : random.int(0, customers.length - 1);
    buyers[i] = index;
    const customer = customers[index];
    if (customer) customer.createdAt = Math.min(customer.createdAt, at - random.int(5, 60 * 24 * 20) * MINUTE);
  });
  const start = now - DEMO_SPAN_DAYS * DAY;
  for (const customer of customers) {
    if (!Number.isFinite(customer.createdAt)) customer.createdAt = start + Math.floor(random.next() * (now - start));
  }

  const orderCounters = new Map(options.orderCounters);
  const invoiceCounters = new Map(options.invoiceCounters);
  const creditNoteCounters = new Map(options.creditNoteCounters);
  const context = { random, person, now, priceList: options.priceList, staff: options.staffActor ?? 'system' };

  function* records(): Generator<DemoRecord> {
    // Invoices are numbered in the order of their dates, which is not the order of the orders (a
    // cheque arrives days later). A payment comes at most days after its order and orders come in
    // date order, so a document dated before the order being generated can take its number.
    const invoices = new DocumentQueue();
    const creditNotes = new DocumentQueue();
    function* release(until: number): Generator<DemoRecord> {
      for (let next = invoices.popUntil(until); next; next = invoices.popUntil(until)) {
        const document = { id: randomUUID(), number: nextNumber('FA', next.at, invoiceCounters), issuedAt: next.at };
        next.order.invoiceId = document.id;
        next.order.invoiceNumber = document.number;
        yield { kind: 'invoice', order: next.order, document };
      }
      for (let next = creditNotes.popUntil(until); next; next = creditNotes.popUntil(until)) {
        const invoiceId = next.order.invoiceId as string;
        const number = nextNumber('AV', next.at, creditNoteCounters);
        yield {
          kind: 'creditNote',
          order: next.order,
          document: { id: randomUUID(), number, issuedAt: next.at, invoiceId },
        };
      }
    }

    for (const [i, createdAt] of times.entries()) {
      yield* release(createdAt);
      const order = makeOrder(context, createdAt, customers[buyers[i] as number] ?? null);
      order.number = nextNumber('SV', createdAt, orderCounters);
      if (order.payment) order.payment.providerRef = `demo_${order.number}`;
      yield { kind: 'order', order };
      if (order.paidAt !== null) invoices.push(order.paidAt, order);
      if (order.refundedAt !== null) creditNotes.push(order.refundedAt, order);
    }
    yield* release(Number.POSITIVE_INFINITY);
  }

  let iterated = false;
  return {
    customers,
    orderCount: times.length,
    records: {
      [Symbol.iterator]() {
        if (iterated) throw new Error('Demo records can be iterated once.');
        iterated = true;
        return records();
      },
    },
    orderCounters,
    invoiceCounters,
    creditNoteCounters,
  };
}

interface OrderContext {
  random: Random;
  person: () => Person;
  now: number;
  priceList: PriceListDocument;
  staff: string;
}

function makeOrder(
  { random, person, now, priceList, staff }: OrderContext,
  createdAt: number,
  customer: DemoCustomer | null,
): DemoOrder {
  const guest = customer
    ? null
    : Object.assign(person(), { accessTokenHash: createHash('sha256').update(randomBytes(32)).digest('hex') });
  const paymentMethod = random.weighted(PAYMENT_METHOD_WEIGHTS);
  const deliveryMethod = random.weighted(DELIVERY_WEIGHTS);
  const sendMethod = random.chance(0.35) ? 'label' : 'self';
  const returnOriginals = random.chance(0.75);
  const { lines: items, price } = priceOrder(priceList, {
    lines: makeItems(random),
    deliveryMethod,
    sendMethod,
    returnOriginals,
  });
  const total = price.totalPriceCents;

  const order: DemoOrder = {
    id: randomUUID(),
    number: '',
    createdAt,
    updatedAt: createdAt,
    customer,
    guest,
    status: 'pending',
    stage: 'awaiting_originals',
    paymentStatus: 'pending',
    paymentMethod,
    deliveryMethod,
    sendMethod,
    returnOriginals,
    items,
    price,
    earlyStartConsentAt: random.chance(0.6) ? createdAt : null,
    paidAt: null,
    events: [],
    payment: null,
    refundedAt: null,
    invoiceId: null,
    invoiceNumber: null,
  };
  const story = storyOf(order, staff);
  story.event(createdAt, customer?.id ?? 'customer', 'created', null, 'pending', { totalCents: total });

  let scenario = random.weighted(SCENARIO_WEIGHTS);
  if (scenario === 'failed' && paymentMethod !== 'card') scenario = 'abandoned';
  // Each scenario draws its own random numbers, in the same order for the same seed.
  if (scenario === 'failed') failCardPayment(story, random, now);
  else if (scenario === 'abandoned') abandon(story, random, now);
  else payThenGoOn(story, random, now, scenario === 'refunded');
  return order;
}

/** An order being written, and the moves that add to its history as the lifecycle records them. */
interface OrderStory {
  order: DemoOrder;
  /** Who makes the staff's moves (an administrator's id, or `system`). */
  staff: string;
  event(
    at: number,
    actor: string,
    kind: string,
    from: string | null,
    to: string | null,
    data?: DemoEvent['data'],
  ): void;
  setStatus(at: number, to: OrderStatus): void;
  /** The parcel reaches the workshop (the lifecycle's `receive`: « Reçu », « En traitement »). */
  receive(at: number): void;
  setStage(at: number, to: WorkshopStage): void;
}

function storyOf(order: DemoOrder, staff: string): OrderStory {
  const event: OrderStory['event'] = (at, actor, kind, from, to, data = null) => {
    order.events.push({ at, actor, kind, from, to, data });
    order.updatedAt = at;
  };
  return {
    order,
    staff,
    event,
    setStatus(at, to) {
      event(at, staff, 'status_changed', order.status, to);
      order.status = to;
    },
    receive(at) {
      event(at, staff, 'parcel_received', order.stage, 'received');
      order.stage = 'received';
      order.status = 'processing';
    },
    setStage(at, to) {
      event(at, staff, 'stage_changed', order.stage, to);
      order.stage = to;
    },
  };
}

/** The card is declined within minutes; most such orders are cancelled some days later. */
function failCardPayment({ order, event, setStatus }: OrderStory, random: Random, now: number): void {
  const { createdAt } = order;
  const at = createdAt + random.int(1, 20) * MINUTE;
  if (at > now) return;
  event(at, 'sandbox', 'payment_failed', 'pending', 'failed', { reason: 'card_declined' });
  order.paymentStatus = 'failed';
  order.payment = { id: randomUUID(), providerRef: '', status: 'failed', createdAt, updatedAt: at };
  const cancelAt = at + random.int(2, 7) * DAY;
  if (cancelAt <= now && random.chance(0.6)) setStatus(cancelAt, 'canceled');
}

/** Never paid: cancelled after two to four weeks. */
function abandon({ order, setStatus }: OrderStory, random: Random, now: number): void {
  const cancelAt = order.createdAt + random.int(14, 30) * DAY;
  if (cancelAt <= now) setStatus(cancelAt, 'canceled');
}

/** How long after the order its payment arrives: minutes by card, days by transfer or cheque. */
const PAYMENT_DELAYS: Record<PaymentMethod, { min: number; max: number; unit: number }> = {
  card: { min: 1, max: 15, unit: MINUTE },
  transfer: { min: 20, max: 96, unit: HOUR },
  cheque: { min: 72, max: 200, unit: HOUR },
};

/** Paid, then the originals are received and worked on, or (`refunded`) the order is cancelled and refunded. */
function payThenGoOn(story: OrderStory, random: Random, now: number, refunded: boolean): void {
  const { order } = story;
  const delay = PAYMENT_DELAYS[order.paymentMethod];
  const paidAt = order.createdAt + random.int(delay.min, delay.max) * delay.unit;
  if (paidAt > now) return;
  const total = order.price.totalPriceCents;
  story.event(paidAt, 'sandbox', 'payment_paid', 'pending', 'paid', {
    amountCents: total,
    method: order.paymentMethod,
  });
  order.paymentStatus = 'paid';
  order.paidAt = paidAt;
  const payment = {
    id: randomUUID(),
    providerRef: '',
    status: 'paid' as const,
    createdAt: order.createdAt,
    updatedAt: paidAt,
  };
  order.payment = payment;

  // Work starts when the originals reach the workshop.
  const received = paidAt + (order.sendMethod === 'label' ? random.int(2, 5) : random.int(3, 10)) * DAY;
  if (refunded) cancelAndRefund(story, random, now, { paidAt, received, payment });
  else if (received <= now) workOn(story, random, now, received);
}

/** Cancelled within days of the payment (received first if the parcel came before), refunded within two days. */
function cancelAndRefund(
  { order, staff, event, setStatus, receive }: OrderStory,
  random: Random,
  now: number,
  paid: { paidAt: number; received: number; payment: NonNullable<DemoOrder['payment']> },
): void {
  const canceledAt = paid.paidAt + random.int(1, 10) * DAY;
  if (canceledAt > now) return;
  if (paid.received < canceledAt) receive(paid.received);
  setStatus(canceledAt, 'canceled');
  const refundedAt = canceledAt + random.int(1, 48) * HOUR;
  if (refundedAt > now) return;
  event(refundedAt, staff, 'payment_refunded', 'paid', 'refunded', { amountCents: order.price.totalPriceCents });
  order.paymentStatus = 'refunded';
  order.refundedAt = refundedAt;
  order.payment = Object.assign({}, paid.payment, { status: 'refunded' as const, updatedAt: refundedAt });
}

/** From the reception to « Prêt » and, when something goes back by post, « Expédiée ». */
function workOn(
  { order, receive, setStage, setStatus }: OrderStory,
  random: Random,
  now: number,
  received: number,
): void {
  receive(received);
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0);
  const work = (random.int(2, 8) + Math.ceil(units / 400)) * DAY + random.int(0, 8) * HOUR;
  // The work between reception and « Prêt »: digitising for two thirds of it, then the quality
  // check; it starts after the withdrawal period unless the customer asked to start at once (the
  // rule book refuses `digitising` before it).
  const notBefore =
    workNotBefore({
      createdAt: new Date(order.createdAt),
      earlyStartConsentAt: order.earlyStartConsentAt === null ? null : new Date(order.earlyStartConsentAt),
    })?.getTime() ?? received;
  const digitisingAt = Math.max(received + Math.round(work / 6), notBefore);
  const checkAt = digitisingAt + Math.round((work * 2) / 3);
  const completedAt = checkAt + Math.round(work / 6);
  if (digitisingAt <= now) setStage(digitisingAt, 'digitising');
  if (checkAt <= now) setStage(checkAt, 'quality_check');
  if (completedAt > now) return;
  // « Prêt » makes the order « Traitée » (advance_stage to ready).
  setStage(completedAt, 'ready');
  order.status = 'completed';
  const physical = order.deliveryMethod !== 'digital' || order.returnOriginals;
  const shippedAt = completedAt + random.int(4, 60) * HOUR;
  if (physical && shippedAt <= now) setStatus(shippedAt, 'shipped');
}
