#!/usr/bin/env node
// What holds the memory in a V8 heap snapshot (.heapsnapshot) too big for
// DevTools: `node --max-old-space-size=8000 scripts/heap-retainers.mjs AFTER
// [BEFORE] [--path=ID,ID]`. Prints the objects that retain the most (by the
// dominator tree, weak edges ignored) with the object that dominates each, and
// with BEFORE (an earlier snapshot of the same process: ids are stable) which of
// them are new and the self size per type that grew; --path prints the shortest
// retainer path from the GC roots to the given object ids. Reads the file as
// bytes (no JSON.parse of the whole, which a string cannot hold past ~512 MB).
import { readFileSync } from "node:fs";

const MB = 1024 * 1024;

function numbers(buf, from) {
  const out = [];
  let i = buf.indexOf(0x5b, from) + 1;
  let value = 0;
  let inNumber = false;
  for (;; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) out.push(value);
      value = 0;
      inNumber = false;
      if (c === 0x5d) return Float64Array.from(out);
    }
  }
}

function strings(buf, from) {
  const out = [];
  let i = buf.indexOf(0x5b, from) + 1;
  for (;;) {
    while (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x2c) i++;
    if (buf[i] === 0x5d) return out;
    let j = i + 1;
    while (buf[j] !== 0x22) j += buf[j] === 0x5c ? 2 : 1;
    out.push(JSON.parse(buf.toString("utf8", i, j + 1)));
    i = j + 1;
  }
}

function read(path) {
  const buf = readFileSync(path);
  const nodesAt = buf.indexOf('"nodes":');
  const meta = JSON.parse(buf.toString("utf8", 0, nodesAt).replace(/,\s*$/, "") + "}").snapshot.meta;
  const edgesAt = buf.indexOf('"edges":', nodesAt);
  const nodes = numbers(buf, nodesAt + 8);
  const edges = numbers(buf, edgesAt + 8);
  const names = strings(buf, buf.indexOf('"strings":', edgesAt) + 10);
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [TYPE, NAME, ID, SIZE, EDGES] = ["type", "name", "id", "self_size", "edge_count"].map((f) => meta.node_fields.indexOf(f));
  const [ETYPE, ENAME, ETO] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f));
  const count = nodes.length / nf;
  const first = new Uint32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) first[n + 1] = e += nodes[n * nf + EDGES];
  const nodeType = (n) => meta.node_types[0][nodes[n * nf + TYPE]];
  const edgeType = (e) => meta.edge_types[0][edges[e * ef + ETYPE]];
  return {
    count,
    first,
    type: nodeType,
    name: (n) => names[nodes[n * nf + NAME]],
    id: (n) => nodes[n * nf + ID],
    size: (n) => nodes[n * nf + SIZE],
    edgeType,
    edgeName: (e) => (["element", "hidden"].includes(edgeType(e)) ? edges[e * ef + ENAME] : names[edges[e * ef + ENAME]]),
    to: (e) => edges[e * ef + ETO] / nf,
    strong: (e) => !["weak", "shortcut"].includes(edgeType(e)),
  };
}

/** Retained sizes by the dominator tree (Cooper, Harvey and Kennedy's iteration over a post-order). */
function dominators(s) {
  const post = new Int32Array(s.count).fill(-1);
  const order = [];
  const next = new Uint32Array(s.count);
  const stack = [0];
  post[0] = -2;
  next[0] = s.first[0];
  while (stack.length) {
    const n = stack[stack.length - 1];
    if (next[n] < s.first[n + 1]) {
      const e = next[n]++;
      const to = s.to(e);
      if (s.strong(e) && post[to] === -1) {
        post[to] = -2;
        next[to] = s.first[to];
        stack.push(to);
      }
    } else {
      stack.pop();
      post[n] = order.length;
      order.push(n);
    }
  }
  const preds = Array.from({ length: s.count }, () => []);
  for (const n of order) for (let e = s.first[n]; e < s.first[n + 1]; e++) if (s.strong(e)) preds[s.to(e)].push(n);
  const idom = new Int32Array(order.length).fill(-1);
  const root = post[0];
  idom[root] = root;
  for (let changed = true; changed; ) {
    changed = false;
    for (let p = order.length - 1; p >= 0; p--) {
      if (p === root) continue;
      let best = -1;
      for (const pred of preds[order[p]]) {
        let a = post[pred];
        if (idom[a] === -1) continue;
        if (best === -1) best = a;
        else {
          let b = best;
          while (a !== b) {
            while (a < b) a = idom[a];
            while (b < a) b = idom[b];
          }
          best = a;
        }
      }
      if (best !== idom[p]) {
        idom[p] = best;
        changed = true;
      }
    }
  }
  const retained = order.map((n) => s.size(n));
  for (let p = 0; p < order.length; p++) if (p !== root) retained[idom[p]] += retained[p];
  return { order, idom, retained };
}

const args = process.argv.slice(2);
const [afterPath, beforePath] = args.filter((a) => !a.startsWith("--"));
const paths = (args.find((a) => a.startsWith("--path="))?.slice(7) ?? "").split(",").filter(Boolean).map(Number);
const s = read(afterPath);
const label = (n) => `${s.type(n)} ${String(s.name(n)).slice(0, 70).replace(/\s+/g, " ")} @${s.id(n)}`;
let known;
if (beforePath) {
  const b = read(beforePath);
  known = new Set();
  const bySelf = (snap, sign, into) => {
    for (let n = 0; n < snap.count; n++) {
      const key = snap.type(n).includes("string") ? snap.type(n) : `${snap.type(n)} ${snap.name(n)}`;
      into.set(key, (into.get(key) ?? 0) + sign * snap.size(n));
    }
  };
  const grew = new Map();
  bySelf(s, 1, grew);
  bySelf(b, -1, grew);
  for (let n = 0; n < b.count; n++) known.add(b.id(n));
  console.log("self size that grew since BEFORE (MB):");
  for (const [key, bytes] of [...grew].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`  ${(bytes / MB).toFixed(1).padStart(8)}  ${key.slice(0, 100)}`);
}
const { order, idom, retained } = dominators(s);
console.log("objects retaining the most (MB retained, new since BEFORE, object ← its dominator):");
const top = order.map((_, p) => p).filter((p) => retained[p] > 4 * MB).sort((a, b) => retained[b] - retained[a]).slice(0, 50);
for (const p of top) {
  const n = order[p];
  const isNew = known ? (known.has(s.id(n)) ? "   " : "new") : "";
  console.log(`  ${(retained[p] / MB).toFixed(1).padStart(8)} ${isNew} ${label(n)} ← ${label(order[idom[p]])}`);
}
if (paths.length) {
  const parent = new Int32Array(s.count).fill(-1);
  const via = new Int32Array(s.count).fill(-1);
  const queue = [0];
  parent[0] = 0;
  for (let h = 0; h < queue.length; h++) {
    const n = queue[h];
    for (let e = s.first[n]; e < s.first[n + 1]; e++) {
      const to = s.to(e);
      if (s.strong(e) && parent[to] < 0) {
        parent[to] = n;
        via[to] = e;
        queue.push(to);
      }
    }
  }
  for (let n = 0; n < s.count; n++) {
    if (!paths.includes(s.id(n))) continue;
    const path = [];
    for (let c = n; c !== 0 && parent[c] >= 0; c = parent[c]) path.push(`${label(c)}  (${s.edgeType(via[c])} ${s.edgeName(via[c])})`);
    console.log(`retainer path to ${label(n)}, from the roots:`);
    for (const line of path.reverse()) console.log(`    ${line}`);
  }
}
