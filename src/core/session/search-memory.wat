;; The skim's backward search for a message's tail (search-memory.ts), with
;; SIMD: 16 candidate starts per step. Built into search-memory-module.ts by
;; scripts/build-wasm.mjs (test/unit/session/search-memory.test.ts checks the
;; two agree).
;;
;; Memory: page 0 holds the needles, the pages after it the read chunks. It
;; never grows (a grown memory would detach the chunks' buffers).
(module
  (memory (export "memory") 65 65)

  ;; The last q in [from, to - n] where the n bytes at q equal the n bytes at
  ;; `needle` (8 ≤ n), or -1: what Buffer.lastIndexOf finds in [from, to).
  (func (export "lastIndexOf") (param $from i32) (param $to i32) (param $needle i32) (param $n i32) (result i32)
    (local $first v128) (local $last v128) (local $head i64) (local $block i32) (local $mask i32) (local $q i32)
    (if (i32.lt_s (i32.sub (local.get $to) (local.get $from)) (local.get $n)) (then (return (i32.const -1))))
    (local.set $first (i8x16.splat (i32.load8_u (local.get $needle))))
    (local.set $last (i8x16.splat (i32.load8_u (i32.add (local.get $needle) (i32.sub (local.get $n) (i32.const 1))))))
    (local.set $head (i64.load (local.get $needle)))
    ;; A block: the 16 candidate starts [block, block + 16), the highest first.
    ;; Bit i of the mask: the needle's first and last bytes are at block + i.
    (local.set $block (i32.sub (i32.sub (local.get $to) (local.get $n)) (i32.const 15)))
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.lt_s (local.get $block) (local.get $from)))
        (local.set $mask (i8x16.bitmask (v128.and
          (i8x16.eq (v128.load (local.get $block)) (local.get $first))
          (i8x16.eq (v128.load (i32.add (local.get $block) (i32.sub (local.get $n) (i32.const 1)))) (local.get $last)))))
        (block $bits_done
          (loop $bits
            (br_if $bits_done (i32.eqz (local.get $mask)))
            (local.set $q (i32.sub (i32.const 31) (i32.clz (local.get $mask))))
            (local.set $mask (i32.xor (local.get $mask) (i32.shl (i32.const 1) (local.get $q))))
            (local.set $q (i32.add (local.get $block) (local.get $q)))
            (if (call $equal (local.get $q) (local.get $needle) (local.get $n) (local.get $head)) (then (return (local.get $q))))
            (br $bits)))
        (local.set $block (i32.sub (local.get $block) (i32.const 16)))
        (br $blocks)))
    ;; The starts left below the last whole block, one by one.
    (local.set $q (i32.add (local.get $block) (i32.const 15)))
    (block $done
      (loop $rest
        (br_if $done (i32.lt_s (local.get $q) (local.get $from)))
        (if (call $equal (local.get $q) (local.get $needle) (local.get $n) (local.get $head)) (then (return (local.get $q))))
        (local.set $q (i32.sub (local.get $q) (i32.const 1)))
        (br $rest)))
    (i32.const -1))

  ;; Whether the n bytes at q are the needle's (`head`: its first 8 bytes).
  (func $equal (param $q i32) (param $needle i32) (param $n i32) (param $head i64) (result i32)
    (local $k i32)
    (if (i64.ne (i64.load (local.get $q)) (local.get $head)) (then (return (i32.const 0))))
    (local.set $k (i32.const 8))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $q) (local.get $k))) (i32.load8_u (i32.add (local.get $needle) (local.get $k))))
          (then (return (i32.const 0))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $bytes)))
    (i32.const 1)))
