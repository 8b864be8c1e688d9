// dppgemm: blocked SGEMM for gfx9 (wave64), one template for every kernel of the variant table.
//
//   C = alpha * op(A) * op(B) + beta * C      column-major, BLAS semantics
//
// Template parameters (MIOpenGEMM names where the meaning is the same; set with
// `.set` before `.include`, see cmake/DppgemmKernels.cmake):
//   Shape (the variant table's macro_tile and micro_tile columns):
//   MACRO_TILE  128, 64 or 32: the workgroup computes a MACRO_TILE x MACRO_TILE tile
//               of C (MIOpenGEMM MAC_M = MAC_N)
//   MICRO_TILE  8, 4 or 2: each workitem computes MICRO_TILE x MICRO_TILE of it
//               (MIOpenGEMM MIC_M = MIC_N); the workgroup is always 16 x 16 lanes,
//               256 workitems, so MACRO_TILE = 16 MICRO_TILE (128/8, 64/4 or 32/2)
//   K_UNROLL    8: k per LDS stage and loop step (MIOpenGEMM UNR); other values
//               stop the assembly (the loads and the LDS rows move 8 k)
//   Why 64x64 takes 4x4 per lane and 256 workitems, not 8x8 and 64: per k a
//   lane reads one A and one B float4 (2 ds_read_b128) for 16 macs, so LDS
//   reads are 2 b128 per 64 VALU clocks, which the timing study estimates at
//   112-147 % of the VALU rate: the regime where sharing B can save time
//   (docs/kernels.md, "The 64x64 family", has what the cycle model says). 64 workitems with 8x8 would keep the 128 tile's 4 reads per
//   64 macs (VALU-bound, DPP buys no time) with a quarter of the waves to
//   hide latency.
//   Why 32x32 (2x2 per lane): small and skinny problems. A 16 x 16 C is one
//   workgroup at any tile, and at 64x64 three quarters of its lanes compute
//   columns and rows that are never stored; at 32x32 each wave issues a
//   quarter of the multiply-adds per k, and a GPU gets 4x the workgroups of
//   64x64 to spread over its CUs. Per k a lane reads one A and one B float2
//   (2 ds_read_b64) for 4 macs: twice 64x64's LDS bytes per FMA, so on large
//   problems the LDS, not the VALU, sets its pace.
//   Operand sharing, named features (0 or 1 each; variant names in brackets):
//   (none)          [dpp0]  every lane reads its own A and B from LDS
//   B_QUAD_SHARED   [dpp1]  the 4 lanes of a quad share B: even lanes read the
//                   lane's B columns 0..3, odd lanes 4..7; quad_perm picks them
//   B_TWO_K         [dpp2]  with B_QUAD_SHARED: quad lanes 2, 3 read the next
//                   k row, so one B read serves two k
//   A_ROW_SHARED    [dpp3]  with B_TWO_K: 16-lane rows of 4 x 4 lanes, B as
//                   B_TWO_K within each quad, and each lane reads one of its two
//                   A float4s; the other comes from the lane one quad back with
//                   v_mov_b32_dpp row_ror:4
//   A_HALF_SHARED   [dpp3half]  with A_ROW_SHARED: on odd k only; for even k
//                   each lane reads both of its A float4s (no movs)
//   B_ROW_BROADCAST [bcast] each 16-lane row shares y; its 16 lanes read the
//                   step's 8 k x 8 B values once, macs take them with
//                   row_newbcast:n (gfx90a/gfx940/gfx942 only); alone
//   PACKED          [packed] v_pk_fma_f32 (below); no sharing
//   Combinations outside these stop the assembly with an .error naming the
//   parameters. They set SHARING, the scheme the macros below branch on:
//   0 none, 1 B_QUAD_SHARED, 2 + B_TWO_K, 3 + A_ROW_SHARED, 4 B_ROW_BROADCAST.
//   With MICRO_TILE=4 a quad's 4 lanes need the same single B float4 per k, so
//   the quad's B reads cover more k instead of column groups (B_K_PER_READ):
//   B_QUAD_SHARED [dpp1_64] quad lane q reads B row k + q / 2: one read, two k
//   + B_TWO_K     [dpp2_64] quad lane q reads B row k + q: one read, four k
//   and the mac of k takes row k from its quad lane with quad_perm. As at
//   MICRO_TILE=8, B_QUAD_SHARED reads each B float4 twice per quad and
//   + B_TWO_K once. MICRO_TILE=2 shares the same way with float2s.
//   A_ROW_SHARED, B_ROW_BROADCAST and PACKED need MICRO_TILE=8.
//   TRANS_A  0: op(A) = A (M x K, lda >= M), 1: op(A) = A^T (A is K x M, lda >= K)
//   TRANS_B  0: op(B) = B (K x N, ldb >= K), 1: op(B) = B^T (B is N x K, ldb >= N)
//   FMAC     0: v_mac_f32 (multiply, round, add, round; flushes fp32
//            denormals whatever the mode: the ISA supports no fp32 denormals
//            for v_mac_f32/v_mad_f32), 1: v_fmac_f32 (fused, one rounding;
//            gfx906 and later, not gfx900)
//   FP32_DENORMALS  0: the kernel descriptor's fp32 denorm mode flushes
//            denormal inputs and results; 1: it keeps them (needs FMAC=1), so
//            v_fmac_f32, v_mul_f32 and v_pk_fma_f32 compute IEEE binary32
//            (the `_denorm` rows of the variant table)
//   (A_HALF_SHARED=1 reads A's other float4 on even k through a second
//   address register: 4096 requests, 17 extra VALU per wave and step instead
//   of A_ROW_SHARED's 3072 and 32)
//   PAD      LDS padding in floats appended to each MACRO_TILE-float A row (and
//            B row for SHARING 0, 1 at MICRO_TILE=8) (multiple of 4); the other
//            schemes fix their B rows (below)
//   ROW_NEWBCAST              1 where DPP row_newbcast exists (gfx90a, gfx94x)
//   ACCUM_OFFSET_REQUIRED     1 on gfx90a/gfx94x (unified VGPR/AGPR file)
//   ARCHITECTED_FLAT_SCRATCH  1 on gfx94x (no flat scratch SGPRs to reserve)
// Derived: MAC_TILE = MACRO_TILE, MIC = MICRO_TILE, UNR = K_UNROLL, WORKITEMS = 256,
// LOADS = MACRO_TILE * 8 / 256 global elements per lane and operand and step
// (4, 2 or 1), READ_FLOATS = floats per LDS read (4: ds_read_b128; 2 at
// MICRO_TILE=2: ds_read_b64).
//
// MICRO_TILE=4 (MACRO_TILE=64): x = tid % 16, y = tid / 16 as for SHARING 0
// below; the lane owns rows {4x..4x+3} and columns {4y..4y+3}; A at
// stage + k * A_ROW_BYTES + 16x, B rows of 72 floats, row k starting 16 * (k / 4)
// bytes later (one skew block holds the four rows a quad reads together); the
// lane reads B at 16y + B_ROW_BYTES * (its row within the read). Conflict-free:
// an 8-lane b128 pass reads one y (broadcast per row) from rows 72 floats = 2
// bank groups apart; gfx942's passes pair quads of y and y + 1 (groups
// y + 2r and y + 1 + 2r, r < 4, all distinct); the ds_write_b32 of k-contiguous
// B put k = 0..7 at banks 8k + 4 (k / 4) + mn, distinct for the 32 lanes.
//
// MICRO_TILE=2 (MACRO_TILE=32): x = tid % 16, y = tid / 16; the lane owns rows
// {2x, 2x+1} and columns {2y, 2y+1}; A at stage + k * A_ROW_BYTES + 8x, B at
// stage + A_TILE_BYTES + k * B_ROW_BYTES + 8y, both rows of 32 + PAD floats,
// no skew; one global element per lane and operand and step (k-strided: k =
// tid / 32, all 8 rows in one load; k-contiguous: mn = tid / 8, k = tid % 8).
// Conflict-free: a ds_read_b64 pass is 16 consecutive lanes (one 16-lane row,
// every target) reading A's 32 consecutive dwords (one bank each) and one B
// address (broadcast); the ds_write_b32 passes of 32 lanes write one k row of
// 32 consecutive dwords (k-strided) or k = 0..7 x 4 mn at banks 4k + mn (PAD=4).
//
// Workitem layout, MICRO_TILE=8 (tid 0..255; wave w = tid / 64; a DPP row is 16 lanes):
//   SHARING 0,1,2,4: x = tid % 16 (M direction), y = tid / 16 (N direction): a row
//     has one y and 16 x, a quad one y and 4 x.
//   SHARING 3: x = 4 ((tid / 16) % 4) + tid % 4, y = 4 w + (tid / 4) % 4: a row
//     has 4 x and 4 y (quad Q = (tid / 4) % 4 has y = 4 w + Q, lane q = tid % 4
//     has x = 4 ((tid / 16) % 4) + q).
// Rows of C a workitem owns (the macro tile's 128 x 128):
//   SHARING 0,1,2,4: {4x..4x+3} (set 0) and {64+4x..64+4x+3} (set 1)
//   SHARING 3: {8x+4h..8x+4h+3} (set 0, the A it reads) and {8x+4(1-h)..} (set 1,
//     the A it is given), h = Q % 2
// Columns: SHARING 0: {4y..4y+3, 64+4y..64+4y+3}; SHARING 1..4: {8y..8y+7}.
//
// LDS layout (bytes), double buffered; a tile row holds one k:
//   stage s at s * STAGE_BYTES, STAGE_BYTES = A_TILE_BYTES + B_TILE_BYTES
//   A tile: stage + k * A_ROW_BYTES + m * 4, A_ROW_BYTES = (128 + PAD) * 4
//   B tile: stage + A_TILE_BYTES + k * B_ROW_BYTES + B_SKEW_BYTES * (k / B_SKEW_ROWS) + n * 4
//     SHARING 0,1: B_ROW_BYTES = (128 + PAD) * 4, no skew
//     SHARING 2,3: rows of 144 floats, row k starts 16 * (k / 2) bytes later
//     SHARING 4:   rows of 136 floats, row k starts 16 * (k / 4) bytes later
// The row strides and skews are what keeps every ds_read_b128 and ds_write_b32
// free of bank conflicts, with 8-consecutive-lane b128 passes and with gfx942's
// measured pairs of lane quarters ({0-3, 20-23}, {4-7, 16-19}, ...); docs/kernels.md
// has the analysis. With 32 banks of 4 bytes a 16-byte read covers bank group
// (dword / 4) % 8; the groups a pass touches must be distinct unless the
// addresses are equal (broadcast).
//
// Global loads go through buffer descriptors whose base is the tile's first
// element and whose num_records is the number of bytes left in the matrix, so
// every edge is branch free: in the M/N direction a lane past the edge reads
// harmless data that only feeds C rows/columns that are never stored; in the K
// direction an out-of-range element must read 0, which num_records gives for
// free when the matrix is contiguous in M/N, and a per-step v_cndmask of the
// offset gives when it is contiguous in K. Offsets are 32-bit and tile-relative:
// leading dimensions of k-contiguous operands and of C must be below 2^22.
//
// LDS read requests per 32x32x8 step, MICRO_TILE=2 (lanes x ds_read_b64):
//   SHARING=0: 256 * (1 A + 1 B) * 8 = 4096 (8 bytes each)
//   per 4 macs of a lane and k: 2 ds_read_b64; no extra VALU.
// LDS read requests per 64x64x8 step, MICRO_TILE=4 (lanes x ds_read_b128):
//   SHARING=0: 256 * (1 A + 1 B) * 8 = 4096     SHARING=1: 256 * (1 + 1/2) * 8 = 3072
//   SHARING=2: 256 * (1 + 1/4) * 8 = 2560
//   per 16 macs of a lane and k: 2, 1.5, 1.25 ds_read_b128; no extra VALU.
// LDS read requests per 128x128x8 step (lanes x ds_read_b128):
//   SHARING=0: 256 * (2 A + 2 B) * 8 = 8192      SHARING=1: 256 * (2 + 1) * 8 = 6144
//   SHARING=2: 256 * (2 + 1/2) * 8 = 5120        SHARING=3: 256 * (1 + 1/2) * 8 = 3072
//   SHARING=4: 256 * (2 * 8 + 1) = 4352
//   SHARING=3 A_HALF_SHARED=1: 256 * ((2 + 1) / 2 + 1/2) * 8 = 4096 (A: 2 float4s
//     for even k, 1 for odd k; 16 ds_read_b128 per wave and step)
// Extra VALU per wave and step: SHARING=3 4 v_mov_b32_dpp per k = 32 (+6.25% on
// the 512 macs); SHARING=3 A_HALF_SHARED=1 4 per odd k = 16, plus 1 to swap the
// stage of its second A address = 17 (+3.3%); all others 0.
// DPP applies to src0, so the shared value is always the first source:
//   v_mac_f32 c, b, a quad_perm:[0,0,2,2]
// The registers DPP reads (B everywhere, SHARING=3's own A) are only ever written
// by ds_read (never by VALU), so no s_nop is needed before them (the
// VALU-write -> DPP-read hazard cannot occur); SHARING=3's moved A is read as a
// plain source.

// ---- packed fp32 (PACKED=1, gfx90a and gfx942 only) ----------------------
//   PACKED   0: one fp32 multiply-add per instruction (v_mac_f32 / v_fmac_f32)
//            1: v_pk_fma_f32, two fused multiply-adds per lane and instruction
//               (needs no sharing and FMAC=1: every DPP form of v_pk_fma_f32 is
//               rejected by the assembler, and the epilogue's blend must be
//               fused like the macs so that one reference describes the kernel)
// Same lane layout, LDS layout, loads, edges and epilogue as SHARING=0; only the
// macs of a k change. The accumulators c(i, j) at v_c + 8 j + i pair rows i, i+1
// (i even) in one even-aligned 64-bit register pair; A rows i, i+1 are the pair
// v_a + set + i; B(k, j) sits in the pair v_b + set + 2 (j / 2). One
// instruction does
//   c(i, j) = fma(a(i), b(j), c(i, j)),  c(i+1, j) = fma(a(i+1), b(j), c(i+1, j))
// broadcasting the one B value with op_sel (low result) / op_sel_hi (high
// result), per source [a, b, c]:
//   j even: op_sel:[0,0,0] op_sel_hi:[1,0,1]   (b.lo feeds both halves)
//   j odd:  op_sel:[0,1,0] op_sel_hi:[1,1,1]   (b.hi feeds both halves)
// (AMD "AMD Instinct MI200" ISA, VOP3P: OPSEL selects the source half of the
// low result, OPSEL_HI that of the high result; for the 32-bit packed ops a
// half is one dword of the 64-bit source pair.)
// Each C element still sees one fused FMA per k in increasing k order, so the
// fused reference (MacKind::fmac_f32) matches bit for bit. The micro tile stays
// 8x8 (32 packed FMAs per k and wave, 128 VGPRs): see docs/kernels.md for why
// 16x8 / 8x12 tiles model slower at the benchmark sizes.
.ifndef PACKED
  .set PACKED, 0
.endif
.ifdef DPP
  .error "DPP is not a template parameter: name the sharing with B_QUAD_SHARED, B_TWO_K, A_ROW_SHARED, A_HALF_SHARED and B_ROW_BROADCAST"
.endif
.ifdef SHARING
  .error "SHARING is derived from B_QUAD_SHARED, B_TWO_K, A_ROW_SHARED, A_HALF_SHARED and B_ROW_BROADCAST: set those"
.endif
.irp feature, B_QUAD_SHARED, B_TWO_K, A_ROW_SHARED, A_HALF_SHARED, B_ROW_BROADCAST
  .ifndef \feature
    .set \feature, 0
  .endif
  .if \feature != 0 && \feature != 1
    .error "\feature must be 0 or 1"
  .endif
.endr
.if B_TWO_K && !B_QUAD_SHARED
  .error "B_TWO_K=1 needs B_QUAD_SHARED=1: one B read serves two k across the quad's lanes"
.endif
.if A_ROW_SHARED && !B_TWO_K
  .error "A_ROW_SHARED=1 needs B_TWO_K=1 (and B_QUAD_SHARED=1): its 4x4-lane rows take B as B_TWO_K does"
.endif
.if A_HALF_SHARED && !A_ROW_SHARED
  .error "A_HALF_SHARED=1 needs A_ROW_SHARED=1: it shares A on odd k only"
.endif
.if B_ROW_BROADCAST && B_QUAD_SHARED
  .error "B_ROW_BROADCAST=1 excludes B_QUAD_SHARED, B_TWO_K and A_ROW_SHARED: each 16-lane row reads B once for all its lanes"
.endif
.set SHARING, 4 * B_ROW_BROADCAST + B_QUAD_SHARED + B_TWO_K + A_ROW_SHARED
// The assembler's own target numbers decide, so that a build for a target
// without packed fp32 stops here with this message instead of 256 "instruction
// not supported on this GPU" lines.
.macro packed_target_error major, minor, stepping
  .error "PACKED=1: v_pk_fma_f32 exists on gfx90a, gfx940 and gfx942 only, not on this target (gfx generation \major\().\minor\().\stepping)"
  .endif                                            // close the two .if around the call,
  .endif                                            // then stop: nothing more to say
  .end
.endm
.if PACKED
  .set _gen_major, .amdgcn.gfx_generation_number
  .set _gen_minor, .amdgcn.gfx_generation_minor
  .set _gen_stepping, .amdgcn.gfx_generation_stepping
  .if !(_gen_major == 9 && (_gen_minor >= 4 || (_gen_minor == 0 && _gen_stepping == 10)))  // gfx90a, gfx94x and later
    .altmacro
    packed_target_error %_gen_major, %_gen_minor, %_gen_stepping
    .noaltmacro
  .endif
  .if SHARING != 0
    .error "PACKED=1 excludes B_QUAD_SHARED, B_TWO_K, A_ROW_SHARED and B_ROW_BROADCAST: v_pk_fma_f32 has no DPP form"
  .endif
  .ifdef FMAC
    .if FMAC != 1
      .error "PACKED=1 needs FMAC=1 (fused epilogue; the targets with v_pk_fma_f32 have v_fmac_f32)"
    .endif
  .else
    .set FMAC, 1
  .endif
.endif

// ---- matrix cores (MFMA=1, gfx908, gfx90a and gfx942 only) ----------------
//   MFMA     0: the vector ALU kernels above; 1: v_mfma_f32_32x32x2f32 (gfx942
//            spells it v_mfma_f32_32x32x2_f32 and takes the old name), the
//            instruction rocBLAS/Tensile's MI200 SGEMM logic lists beside
//            16x16x4f32 (MatrixInstruction [32, 32, 2, 1]); needs no sharing,
//            MICRO_TILE=8 and FMAC=1 (the epilogue's blend is fused like the
//            MFMA's own multiply-adds)
// Same loads, LDS layout (SHARING=0's rows of 128 + PAD floats), edges and
// epilogue as SHARING=0; the 4 waves split the 128 x 128 tile in 64 x 64
// quarters (wave w: rows 64 (w % 2), columns 64 (w / 2)), each as 2 x 2 blocks
// of 32 x 32. One MFMA adds A(32 x 2) B(2 x 32) to a block; per k pair p
// (k = 2p, 2p + 1) a wave issues 4 of them. Operand lanes (AMD's matrix
// instruction calculator; /work/shared/design/mfma.md section 1):
//   A[i][k] in lane 32k + i, B[k][j] in lane 32k + j (one VGPR each)
//   D[i][j] in register 4 (i / 8) + i % 4 of the block, lane 32 ((i / 4) % 2) + j
// so lane l (h = l / 32) reads one dword of A row k = 2p + h at
// m = 64 (w % 2) + 32 bi + l % 32 and one of B row 2p + h at n = 64 (w / 2) +
// 32 bj + l % 32: a ds_read_b32 per block operand, 16 per wave and step:
//   LDS read requests per 128x128x8 step: 4 waves * 64 lanes * (8 A + 8 B) = 4096
// (4 bytes each: 0.125 bytes of LDS per FMA against dpp0's 1.0). A half-wave
// pass reads 32 consecutive dwords of one row: no bank conflicts.
// The lane's C: columns n = col_first + 32 j (j = bj < 2), rows row_first +
// 8 s + r (row set s = 4 bi + g, r < 4) with row_first = 64 (w % 2) + 4h: the
// epilogue's c(i, j) at v_c + LANE_ROWS j + i with LANE_ROWS = 32 (i = 4 s + r)
// and LANE_COLS = 2. Block (bi, bj) is v_c + 16 bi + 32 bj .. + 15.
// Accumulators: gfx908's MFMA writes C/D only to AGPRs (a[0:63], the same
// numbers as v_c; v_accvgpr_read copies them to v_c before the epilogue);
// gfx90a/gfx942 accumulate in v_c itself (no AGPRs, accum_offset = VGPR_COUNT).
// Each C element is a chain of fused multiply-adds over k in increasing order
// if the MFMA sums its 2 products in k order (the emulator's model; the order
// is published nowhere), which is what the fused reference computes.
// Wait states (LLVM GCNHazardRecognizer; mfma.md section 3), 32x32x2f32 being a
// 16-pass op: MFMA result -> v_accvgpr_read 18 (gfx908), -> VALU read 19
// (gfx90a), 18 (gfx942). No s_nop is needed: from the loop's last MFMA to the
// first read of a result run 30 instructions, each one wait state, on the way
// to gfx908's v_accvgpr_read (loop exit 2, C descriptor 20, lane_c_corner 7,
// s_lshl 1) and more before the epilogue's first v_mul_f32 of them elsewhere.
// Operands come from ds_read only (no VALU-write -> MFMA-read hazard) and
// consecutive MFMAs of a block use an identical SrcC (a chain: 0 wait states).
.ifndef MFMA
  .set MFMA, 0
.endif
.macro mfma_target_error major, minor, stepping
  .error "MFMA=1: v_mfma_f32_32x32x2f32 exists on gfx908, gfx90a, gfx940 and gfx942 only, not on this target (gfx generation \major\().\minor\().\stepping)"
  .endif
  .endif
  .end
.endm
.if MFMA
  .set _gen_major, .amdgcn.gfx_generation_number
  .set _gen_minor, .amdgcn.gfx_generation_minor
  .set _gen_stepping, .amdgcn.gfx_generation_stepping
  .if !(_gen_major == 9 && (_gen_minor >= 4 || (_gen_minor == 0 && (_gen_stepping == 8 || _gen_stepping == 10))))
    .altmacro
    mfma_target_error %_gen_major, %_gen_minor, %_gen_stepping
    .noaltmacro
  .endif
  .if SHARING != 0 || PACKED
    .error "MFMA=1 excludes B_QUAD_SHARED, B_TWO_K, A_ROW_SHARED, B_ROW_BROADCAST and PACKED: the matrix core takes its operands in its own lane layout"
  .endif
  .ifdef FMAC
    .if FMAC != 1
      .error "MFMA=1 needs FMAC=1 (fused epilogue; every target with MFMA has v_fmac_f32)"
    .endif
  .else
    .set FMAC, 1
  .endif
.endif

.ifndef TRANS_A
  .error "template parameter TRANS_A is not set"
.endif
.ifndef TRANS_B
  .error "template parameter TRANS_B is not set"
.endif
.ifndef FMAC
  .error "template parameter FMAC is not set"
.endif
.ifndef FP32_DENORMALS
  .set FP32_DENORMALS, 0
.endif
.if FP32_DENORMALS != 0 && (FP32_DENORMALS != 1 || FMAC != 1)
  .error "FP32_DENORMALS must be 0 or 1, and 1 needs FMAC=1: v_mac_f32 flushes fp32 denormals whatever the denorm mode"
.endif
.if FMAC
  .if .amdgcn.gfx_generation_number == 9 && .amdgcn.gfx_generation_minor == 0 && .amdgcn.gfx_generation_stepping == 0
    .error "FMAC=1: v_fmac_f32 does not exist on gfx900 (gfx906 and later have it)"
  .endif
.endif
.ifndef PAD
  .set PAD, 4
.endif
.ifndef ROW_NEWBCAST
  .set ROW_NEWBCAST, 0
.endif
.ifndef A_HALF_SHARED
  .set A_HALF_SHARED, 0
.endif
.ifndef ACCUM_OFFSET_REQUIRED
  .set ACCUM_OFFSET_REQUIRED, 0
.endif
.ifndef ARCHITECTED_FLAT_SCRATCH
  .set ARCHITECTED_FLAT_SCRATCH, 0
.endif
// The descriptor's fp32 denorm mode: 0 flushes inputs and results, 3 keeps both.
.set FP32_DENORM_MODE, 3 * FP32_DENORMALS
.ifndef MACRO_TILE
  .error "template parameter MACRO_TILE is not set (128, 64 or 32)"
.endif
.ifndef MICRO_TILE
  .error "template parameter MICRO_TILE is not set (8, 4 or 2)"
.endif
.ifndef K_UNROLL
  .set K_UNROLL, 8
.endif
.if K_UNROLL != 8
  .error "K_UNROLL must be 8: the loads, the LDS rows and the k loop move 8 k per step"
.endif
// 256 workitems as 16 x 16 lanes, each owning MICRO_TILE x MICRO_TILE of C.
.if !((MACRO_TILE == 128 && MICRO_TILE == 8) || (MACRO_TILE == 64 && MICRO_TILE == 4) || (MACRO_TILE == 32 && MICRO_TILE == 2))
  .error "MACRO_TILE and MICRO_TILE must be 128 and 8, 64 and 4, or 32 and 2: the workgroup is 16 x 16 lanes (256 workitems), so MACRO_TILE = 16 * MICRO_TILE"
.endif
.if MFMA && MACRO_TILE != 128
  .error "MFMA=1 needs MACRO_TILE=128 and MICRO_TILE=8: 4 waves of 2 x 2 blocks of 32 x 32"
.endif
.if MICRO_TILE != 8 && (A_ROW_SHARED || B_ROW_BROADCAST || PACKED)
  .error "MICRO_TILE=4 and MICRO_TILE=2 take no A_ROW_SHARED, B_ROW_BROADCAST or PACKED: a lane reads one A float4 (float2) per k (nothing to share in a row) and one B float4 (float2)"
.endif
.set MAC_TILE, MACRO_TILE
.set MIC, MICRO_TILE
.set UNR, K_UNROLL
// The C values of a lane: LANE_ROWS rows x LANE_COLS columns, c(i, j) at
// v_c + LANE_ROWS j + i (MFMA=1: 32 rows in 8 sets of 4, 2 columns; header).
.if MFMA
  .set LANE_ROWS, 32
  .set LANE_COLS, 2
.else
  .set LANE_ROWS, MIC
  .set LANE_COLS, MIC
.endif
// gfx908's MFMA accumulates in AGPRs; gfx90a/gfx94x (unified file) in VGPRs.
.set MFMA_ACC_AGPRS, MFMA && !ACCUM_OFFSET_REQUIRED
.if MFMA_ACC_AGPRS
  .set AGPR_COUNT, 64
.else
  .set AGPR_COUNT, 0
.endif
.set WORKITEMS, (MACRO_TILE / MICRO_TILE) * (MACRO_TILE / MICRO_TILE)
// (an assembler comparison is -1 when true: branch with .if, never add one)
.if MACRO_TILE == 128
  .set LOG2_MAC_TILE, 7
.elseif MACRO_TILE == 64
  .set LOG2_MAC_TILE, 6
.else
  .set LOG2_MAC_TILE, 5
.endif
// One LDS read of an operand: a float4 (ds_read_b128; MICRO_TILE=8 reads its
// 8 rows or columns as two) or, at MICRO_TILE=2, a float2 (ds_read_b64).
.if MIC == 2
  .set READ_FLOATS, 2
  .set LOG2_READ_FLOATS, 1
.else
  .set READ_FLOATS, 4
  .set LOG2_READ_FLOATS, 2
.endif
// Rows of C the epilogue stores per row set (MFMA=1: 8 sets of 4).
.set SET_ROWS, READ_FLOATS
// Global elements each lane moves per operand and step (a MACRO_TILE x UNR tile).
.set LOADS, MACRO_TILE * UNR / WORKITEMS
// k rows one k-strided load instruction spans (the tile's 256 lanes over MACRO_TILE m or n).
.set K_ROWS_PER_LOAD, WORKITEMS / MACRO_TILE
// How many k one B read serves the lane (through the quad), and the B float4s a lane reads at once.
.if MIC == 8
  .set B_K_PER_READ, 1
  .set B_GROUPS_READ, 1
  .if SHARING == 2 || SHARING == 3
    .set B_K_PER_READ, 2
  .elseif SHARING == 0
    .set B_GROUPS_READ, 2
  .endif
.else
  .set B_K_PER_READ, 1 << SHARING
  .set B_GROUPS_READ, 1
.endif
.if B_ROW_BROADCAST && ROW_NEWBCAST == 0
  .error "B_ROW_BROADCAST=1 (variant bcast) needs DPP row_newbcast, which only gfx90a, gfx940 and gfx942 have; not available on this target"
.endif
.if (PAD % 4) != 0
  .error "PAD must be a multiple of 4 floats (ds_read_b128 alignment)"
.endif

// ---- LDS geometry -------------------------------------------------------
.set A_ROW_BYTES, (MAC_TILE + PAD) * 4
.set A_TILE_BYTES, UNR * A_ROW_BYTES
.if MIC == 4
  .set B_ROW_BYTES, (MAC_TILE + 8) * 4
  .set B_SKEW_BYTES, 16
  .set B_SKEW_ROWS, 4
.elseif MIC == 2
  .set B_ROW_BYTES, (MAC_TILE + PAD) * 4
  .set B_SKEW_BYTES, 0
  .set B_SKEW_ROWS, 2
.elseif SHARING == 2 || SHARING == 3
  .set B_ROW_BYTES, 144 * 4
  .set B_SKEW_BYTES, 16
  .set B_SKEW_ROWS, 2
.elseif SHARING == 4
  .set B_ROW_BYTES, 136 * 4
  .set B_SKEW_BYTES, 16
  .set B_SKEW_ROWS, 4
.else
  .set B_ROW_BYTES, (MAC_TILE + PAD) * 4
  .set B_SKEW_BYTES, 0
  .set B_SKEW_ROWS, 2
.endif
.set B_TILE_BYTES, UNR * B_ROW_BYTES
.if B_SKEW_ROWS != 2 && B_SKEW_ROWS != 4
  .error "B_SKEW_ROWS must be 2 or 4 (setup_operand_lanes shifts k by it; store_operand_to_lds relies on it being even)"
.endif
.if B_SKEW_BYTES && B_SKEW_ROWS < K_ROWS_PER_LOAD
  .error "B_SKEW_ROWS must be at least K_ROWS_PER_LOAD: setup_operand_lanes gives a lane's first k row no skew"
.endif
.if (UNR - 1) * B_ROW_BYTES + B_SKEW_BYTES * ((UNR - 1) / B_SKEW_ROWS) + MAC_TILE * 4 > B_TILE_BYTES
  .error "the skewed B rows do not fit in the B tile"
.endif
.set STAGE_BYTES, A_TILE_BYTES + B_TILE_BYTES
.set LDS_BYTES, 2 * STAGE_BYTES
.set GROUP_BYTES, (MAC_TILE / 2) * 4      // SHARING 0..2, 4: second float4 group of A (and of B for SHARING 0)
.if LDS_BYTES > 65536
  .error "LDS tiles exceed 64 KiB"
.endif

// Byte offset of B row k from the B tile's start.
.macro b_row_offset_is k
  .set _b_row, (\k) * B_ROW_BYTES + B_SKEW_BYTES * ((\k) / B_SKEW_ROWS)
.endm

// Offsets >= this read 0 / drop writes: num_records is clamped to it.
.set OUT_OF_RANGE, 0x80000000

// ---- kernel arguments (include/dppgemm/kernargs.h) ------------------------
// Metadata names avoid `n`/`N`: LLVM's YAML reads them as booleans, quoted or not.
.set KARG_A, 0
.set KARG_B, 8
.set KARG_C, 16
.set KARG_M, 24
.set KARG_N, 28
.set KARG_K, 32
.set KARG_LDA, 36
.set KARG_LDB, 40
.set KARG_LDC, 44
.set KARG_ALPHA, 48
.set KARG_BETA, 52
.set KARGS_SIZE, 56

// ---- SGPR map -------------------------------------------------------------
.set s_kernarg, 0          // s[0:1] user SGPR: kernarg segment pointer
.set s_wg_m, 2             // workgroup id x -> macro tile row
.set s_wg_n, 3             // workgroup id y -> macro tile column
.set s_ptr_a, 4            // s[4:5]
.set s_ptr_b, 6            // s[6:7]
.set s_ptr_c, 8            // s[8:9]
.set s_m, 10
.set s_n, 11
.set s_k, 12
.set s_lda, 13
.set s_ldb, 14
.set s_ldc, 15
.set s_alpha, 16
.set s_beta, 17
.set s_desc_a, 20          // s[20:23] buffer descriptor of the A tile
.set s_desc_b, 24          // s[24:27]
.set s_desc_c, 28          // s[28:31]
.set s_left_a, 32          // s[32:33] bytes of A from the descriptor base on (64-bit)
.set s_left_b, 34          // s[34:35]
.set s_step_a, 36          // s[36:37] bytes the A descriptor advances per k step
.set s_step_b, 38          // s[38:39]
.set s_steps, 40           // k steps of UNR still to compute
.set s_k_left, 41          // K - (first k of the tile being loaded)
.set s_stage_delta, 42     // +-STAGE_BYTES: flips the LDS stage each step
.set s_m_left, 43          // M - m0
.set s_n_left, 44          // N - n0
.set s_tmp, 46             // s[46:49] scratch
.set SGPR_COUNT, 50

// ---- VGPR map -------------------------------------------------------------
// (numbers for MICRO_TILE=8; MICRO_TILE=4 and 2 pack the same blocks from v0 on)
.set v_c, 0                // v[0:63]   accumulators, c(i, j) at v_c + MIC j + i (i: row, j: column of the micro tile)
.set v_a, v_c + MIC * MIC  // v[64:79]  A values, two sets of MIC (k even / k odd); SHARING=3: 4 read + 4 moved
                           //           (A_HALF_SHARED=1: k even 8 read, k odd 4 read + 4 moved)
.set v_b, v_a + 2 * MIC    // v[80:95]  B values: two sets of B_REGS (by (k / B_K_PER_READ) parity); SHARING=4: one set of 4 per step
.set B_REGS, READ_FLOATS * B_GROUPS_READ
.set v_lds_read_a_other, v_b + 2 * B_REGS  // v88, free when B_REGS = 4; A_HALF_SHARED=1:
                           // LDS byte address of the lane's other A float4 (row set 1)
.set v_load_a, v_b + 2 * MIC // v[96:99]  A elements in flight from global memory (LOADS of them)
.set v_load_b, v_load_a + LOADS   // v[100:103]
.set v_goff_a, v_load_b + LOADS   // v[104:107] byte offsets of those elements in the tile
.set v_goff_b, v_goff_a + LOADS   // v[108:111]
.set v_lds_read_a, v_goff_b + LOADS  // v112: LDS byte address this lane reads A from
.set v_lds_read_b, v_lds_read_a + 1
.set v_lds_write_a, v_lds_read_a + 2 // LDS byte address this lane writes its A elements to
.set v_lds_write_b, v_lds_read_a + 3
.set v_tid, v_lds_read_a + 4
.set v_k_in_tile_a, v_lds_read_a + 5 // k of this lane's elements within the tile (k-contiguous)
.set v_k_in_tile_b, v_lds_read_a + 6
.set v_tmp, v_lds_read_a + 7         // v[119:126] scratch
.set v_out_of_range, v_tmp + 8       // v127: OUT_OF_RANGE: v_cndmask may read only one of VCC/literal/SGPR
.set VGPR_COUNT, v_out_of_range + 1  // 128 (MICRO_TILE=4: 56, MICRO_TILE=2: 32)
// epilogue: the load registers are dead by then
.set v_col_off, v_load_a   // v[96:103] (LANE_COLS registers over the 2 LOADS load ones) byte offset of C column j, row set's first row, of this lane
.if LANE_COLS > 2 * LOADS
  .error "the C column offsets (LANE_COLS of them) do not fit over the load registers (2 LOADS)"
.endif
.set v_row_first, v_goff_a // first C row of row set 0 of this lane
.set v_col_first, v_goff_a + 1 // first C column of this lane
.set v_row_first_1, v_goff_a + 2 // SHARING=3: first C row of row set 1
.set s_ldc_bytes, s_step_a
.set s_row_exec, s_desc_a  // s[20:27] (MFMA=1 blend) EXEC of each of a row set's 4 rows

// ---- helpers --------------------------------------------------------------

// The multiply-accumulate of the target: v_mac_f32 (two roundings) before
// gfx940, v_fmac_f32 (one rounding) on gfx940+. `ctl` is empty or a DPP control.
.macro mac dst, src0, src1, ctl=""
.if FMAC
  v_fmac_f32 \dst, \src0, \src1 \ctl
.else
  v_mac_f32 \dst, \src0, \src1 \ctl
.endif
.endm

// dst64 = a32 * b32 (unsigned)
.macro mul_u64 dst, a, b
  s_mul_i32 s[\dst], \a, \b
  s_mul_hi_u32 s[\dst + 1], \a, \b
.endm

// s[dst] = min(s[src:src+1], OUT_OF_RANGE): num_records from a 64-bit byte count
.macro clamp_num_records dst, src
  s_min_u32 s[\dst], s[\src], OUT_OF_RANGE
  s_cmp_eq_u32 s[\src + 1], 0
  s_cselect_b32 s[\dst], s[\dst], OUT_OF_RANGE
.endm

// Buffer descriptor of one operand tile, and how it advances per k step.
// An operand is a mn x K matrix in memory (mn = M for A, N for B):
//   k_contiguous 0: element (mn, k) at mn + k * ld   (A, or B^T)
//   k_contiguous 1: element (mn, k) at k + mn * ld   (A^T, or B)
// Consumes s_tmp..s_tmp+3.
.macro setup_operand desc, left, step, ptr, mn_tile, mn_size, ld, k_contiguous
  // total elements of the matrix in s[tmp:tmp+1]; first tile element in s[tmp+2:tmp+3]
.if \k_contiguous
  s_sub_u32 s[s_tmp + 2], s[\mn_size], 1
  mul_u64 s_tmp, s[s_tmp + 2], s[\ld]
  s_add_u32 s[s_tmp], s[s_tmp], s[s_k]
  s_addc_u32 s[s_tmp + 1], s[s_tmp + 1], 0
  mul_u64 s_tmp+2, \mn_tile, s[\ld]
  s_mov_b32 s[\step], UNR * 4
  s_mov_b32 s[\step + 1], 0
.else
  s_sub_u32 s[s_tmp + 2], s[s_k], 1
  mul_u64 s_tmp, s[s_tmp + 2], s[\ld]
  s_add_u32 s[s_tmp], s[s_tmp], s[\mn_size]
  s_addc_u32 s[s_tmp + 1], s[s_tmp + 1], 0
  s_mov_b32 s[s_tmp + 2], \mn_tile
  s_mov_b32 s[s_tmp + 3], 0
  s_lshl_b32 s[\step], s[\ld], 5           // UNR * 4 bytes per column
  s_lshr_b32 s[\step + 1], s[\ld], 27
.endif
  // bytes left = 4 * (total - first)
  s_sub_u32 s[\left], s[s_tmp], s[s_tmp + 2]
  s_subb_u32 s[\left + 1], s[s_tmp + 1], s[s_tmp + 3]
  s_lshl_b64 s[\left:\left + 1], s[\left:\left + 1], 2
  // base = ptr + 4 * first
  s_lshl_b64 s[s_tmp + 2:s_tmp + 3], s[s_tmp + 2:s_tmp + 3], 2
  s_add_u32 s[\desc], s[\ptr], s[s_tmp + 2]
  s_addc_u32 s[\desc + 1], s[\ptr + 1], s[s_tmp + 3]
  s_and_b32 s[\desc + 1], s[\desc + 1], 0xffff   // stride 0: a raw buffer
  clamp_num_records \desc+2, \left
  s_mov_b32 s[\desc + 3], 0x00020000             // DATA_FORMAT 32
.endm

// Move an operand's descriptor on by one k step (after its loads are issued).
.macro advance_operand desc, left, step
  s_add_u32 s[\desc], s[\desc], s[\step]
  s_addc_u32 s[\desc + 1], s[\desc + 1], s[\step + 1]
  s_sub_u32 s[\left], s[\left], s[\step]
  s_subb_u32 s[\left + 1], s[\left + 1], s[\step + 1]
  clamp_num_records \desc+2, \left
.endm

// Per-lane global offsets and LDS write address of one operand: each lane
// moves LOADS of the MACRO_TILE x 8 tile's elements (4 at 128, 2 at 64).
// k_contiguous 0: lane t takes mn = t % MACRO_TILE, k = t / MACRO_TILE +
// K_ROWS_PER_LOAD i; 1: mn = t / 8 + 32 i, k = t % 8.
// Consecutive lanes always touch consecutive addresses in memory. The tile
// starts tile_offset bytes into the stage; row k at k * row_bytes +
// skew_bytes * (k / skew_rows) (skew_rows a power of two).
.macro setup_operand_lanes goff, lds_write, k_in_tile, ld, tile_offset, row_bytes, skew_bytes, skew_rows, k_contiguous
.if \k_contiguous
  v_lshrrev_b32 v[v_tmp], 3, v[v_tid]              // mn
  v_and_b32 v[\k_in_tile], 7, v[v_tid]             // k
  v_mul_lo_u32 v[v_tmp + 1], v[v_tmp], s[\ld]      // mn * ld
  v_add_u32 v[v_tmp + 1], v[v_tmp + 1], v[\k_in_tile]
  v_lshlrev_b32 v[\goff], 2, v[v_tmp + 1]
  .if LOADS > 1
  s_lshl_b32 s[s_tmp], s[\ld], 7                   // 32 mn further: 32 * ld * 4 bytes
  .endif
  .irp i, 1, 2, 3
  .if \i < LOADS
  v_add_u32 v[\goff + \i], s[s_tmp], v[\goff + \i - 1]
  .endif
  .endr
  v_mul_u32_u24 v[v_tmp + 1], \row_bytes, v[\k_in_tile]
  .if \skew_bytes
  v_lshrrev_b32 v[v_tmp + 2], (\skew_rows / 4) + 1, v[\k_in_tile]  // k / skew_rows (2 or 4)
  v_mad_u32_u24 v[v_tmp + 1], \skew_bytes, v[v_tmp + 2], v[v_tmp + 1]
  .endif
  v_lshl_add_u32 v[\lds_write], v[v_tmp], 2, v[v_tmp + 1]
.else
  v_and_b32 v[v_tmp], MAC_TILE - 1, v[v_tid]       // mn
  v_lshrrev_b32 v[v_tmp + 1], LOG2_MAC_TILE, v[v_tid]  // k
  v_mul_lo_u32 v[v_tmp + 2], v[v_tmp + 1], s[\ld]  // k * ld
  v_add_u32 v[v_tmp + 2], v[v_tmp + 2], v[v_tmp]
  v_lshlrev_b32 v[\goff], 2, v[v_tmp + 2]
  .if LOADS > 1
  s_lshl_b32 s[s_tmp], s[\ld], 2 + K_ROWS_PER_LOAD / 2  // K_ROWS_PER_LOAD (2 or 4) k further: k rows * ld * 4 bytes
  .endif
  .irp i, 1, 2, 3
  .if \i < LOADS
  v_add_u32 v[\goff + \i], s[s_tmp], v[\goff + \i - 1]
  .endif
  .endr
  v_mul_u32_u24 v[v_tmp + 1], \row_bytes, v[v_tmp + 1]   // k < K_ROWS_PER_LOAD <= skew_rows, or no skew: none here
  v_lshl_add_u32 v[\lds_write], v[v_tmp], 2, v[v_tmp + 1]
.endif
.if \tile_offset
  v_add_u32 v[\lds_write], \tile_offset, v[\lds_write]
.endif
.endm

// Issue the 4 global loads of one operand for the tile at the descriptor. For
// a k-contiguous operand, elements at k >= K get an out-of-range offset first
// (only the last tile has any; after it no further loads use the offsets).
.macro load_operand desc, load, goff, k_in_tile, k_contiguous
.if \k_contiguous
  v_cmp_gt_i32 vcc, s[s_k_left], v[\k_in_tile]
  .if ARCHITECTED_FLAT_SCRATCH
  s_nop 1                                          // gfx94x: no VCC interlock between VALU ops, 2 wait states
  .endif
  .irp i, 0, 1, 2, 3
  .if \i < LOADS
  v_cndmask_b32 v[\goff + \i], v[v_out_of_range], v[\goff + \i], vcc
  .endif
  .endr
.endif
  .irp i, 0, 1, 2, 3
  .if \i < LOADS
  buffer_load_dword v[\load + \i], v[\goff + \i], s[\desc:\desc + 3], 0 offen
  .endif
  .endr
.endm

.macro load_tile
  load_operand s_desc_a, v_load_a, v_goff_a, v_k_in_tile_a, TRANS_A
  load_operand s_desc_b, v_load_b, v_goff_b, v_k_in_tile_b, (1-TRANS_B)
  advance_operand s_desc_a, s_left_a, s_step_a
  advance_operand s_desc_b, s_left_b, s_step_b
  s_sub_u32 s[s_k_left], s[s_k_left], UNR
.endm

// k_contiguous 1: element i is 32 mn further in the same row; 0: r i k
// further (r = K_ROWS_PER_LOAD), k = k0 + r i with k0 < r <= skew_rows, so its
// skew is that of row r i.
.macro store_operand_to_lds load, lds_write, row_bytes, skew_bytes, skew_rows, k_contiguous
  .irp i, 0, 1, 2, 3
  .if \i < LOADS
  .if \k_contiguous
  ds_write_b32 v[\lds_write], v[\load + \i] offset:\i * 128
  .else
  ds_write_b32 v[\lds_write], v[\load + \i] offset:\i * K_ROWS_PER_LOAD * \row_bytes + \skew_bytes * ((K_ROWS_PER_LOAD * \i) / \skew_rows)
  .endif
  .endif
  .endr
.endm

// Wait for the tile's global loads, put it in LDS and publish it to all waves.
.macro store_tile_to_lds
  s_waitcnt vmcnt(0)
  store_operand_to_lds v_load_a, v_lds_write_a, A_ROW_BYTES, 0, 2, TRANS_A
  store_operand_to_lds v_load_b, v_lds_write_b, B_ROW_BYTES, B_SKEW_BYTES, B_SKEW_ROWS, (1-TRANS_B)
  s_waitcnt lgkmcnt(0)
  s_barrier
.endm

// ---- the micro kernel (MIC x MIC per lane) ---------------------------------

// _a_moved = 1 when the A float4 of row set 1 for k comes from the lane one quad
// back (SHARING=3: every k; with A_HALF_SHARED=1 odd k only), 0 when it is read.
.macro a_moved_is k
  .set _a_moved, (SHARING == 3) && !(A_HALF_SHARED && ((\k) % 2) == 0)
.endm

// One float4 (ds_read_b128) or, at MICRO_TILE=2, float2 (ds_read_b64) of an
// operand into v[dst..].
.macro read_floats dst, address, offset
.if READ_FLOATS == 2
  ds_read_b64 v[\dst:\dst + 1], v[\address] offset:\offset
.else
  ds_read_b128 v[\dst:\dst + 3], v[\address] offset:\offset
.endif
.endm

// A reads of one k into register set k % 2: SHARING=3 reads the float4 of its own
// row set (the lane address selects it), and that of row set 1 from its second
// address where it is not moved; the others both groups.
.macro read_a k
  .set _set_a, v_a + ((\k) % 2) * MIC
  read_floats _set_a, v_lds_read_a, (\k) * A_ROW_BYTES
  a_moved_is \k
.if MIC != 8
.elseif SHARING != 3
  ds_read_b128 v[_set_a + 4:_set_a + 7], v[v_lds_read_a] offset:(\k) * A_ROW_BYTES + GROUP_BYTES
.elseif !_a_moved
  ds_read_b128 v[_set_a + 4:_set_a + 7], v[v_lds_read_a_other] offset:(\k) * A_ROW_BYTES
.endif
.endm

// B reads of one k: a lane reads B_GROUPS_READ float4s (float2s) every B_K_PER_READ k
// (its address holds its row within those k and its column group), into the
// set of parity (k / B_K_PER_READ) % 2; SHARING=4 the whole step at k = 0.
.macro read_b k
  b_row_offset_is \k
.if SHARING == 4
  .if (\k) == 0
  ds_read_b128 v[v_b:v_b + 3], v[v_lds_read_b] offset:A_TILE_BYTES
  .endif
.elseif ((\k) % B_K_PER_READ) == 0
  .set _set_b, v_b + (((\k) / B_K_PER_READ) % 2) * B_REGS
  read_floats _set_b, v_lds_read_b, A_TILE_BYTES + _b_row
  .if B_GROUPS_READ == 2
  ds_read_b128 v[_set_b + 4:_set_b + 7], v[v_lds_read_b] offset:A_TILE_BYTES + _b_row + GROUP_BYTES
  .endif
.endif
.endm

// How many ds_read instructions read_a + read_b issue for k (for s_waitcnt lgkmcnt).
.macro reads_of_k_is k
  a_moved_is \k
.if MIC != 8
  .set _reads, 1
.else
  .set _reads, 2 - _a_moved
.endif
.if SHARING == 4
  .if (\k) == 0
  .set _reads, _reads + 1
  .endif
.elseif ((\k) % B_K_PER_READ) == 0
  .set _reads, _reads + B_GROUPS_READ
.endif
.endm

// SHARING=3: the A float4 of the other row set comes from the lane one quad back
// in the row (same x, the other h), 4 v_mov_b32_dpp per k it is moved for.
.macro move_a k
  .set _set_a, v_a + ((\k) % 2) * MIC
  .irp i, 0, 1, 2, 3
  v_mov_b32_dpp v[_set_a + 4 + \i], v[_set_a + \i] row_ror:4 row_mask:0xf bank_mask:0xf
  .endr
.endm

// The MIC macs of column j: c(0..MIC-1, j) += a(0..MIC-1) * b, b = src0 under DPP control ctl.
.macro mac_rows j, set_a, src_b, ctl=""
  .irp i, 0, 1, 2, 3, 4, 5, 6, 7
  .if \i < MIC
  mac v[v_c + MIC * \j + \i], v[\src_b], v[\set_a + \i], "\ctl"
  .endif
  .endr
.endm

// One column j of the micro tile for k: where its B value lives and how the
// lane gets it.
.macro mac_column k, j
  .set _set_a, v_a + ((\k) % 2) * MIC
  .set _set_b, v_b + (((\k) / B_K_PER_READ) % 2) * B_REGS
.if SHARING == 0
  mac_rows \j, _set_a, (_set_b + \j)
.elseif MIC != 8
  // quad lane q read B row (k rounded down to B_K_PER_READ) + q * B_K_PER_READ / 4:
  // lane 2 (k % 2) (B_QUAD_SHARED) or k % 4 (+ B_TWO_K) holds row k
  .set _lane, (4 / B_K_PER_READ) * ((\k) % B_K_PER_READ)
  mac_rows \j, _set_a, (_set_b + \j), "quad_perm:[_lane,_lane,_lane,_lane] row_mask:0xf bank_mask:0xf"
.elseif SHARING == 1
  // even quad lanes hold columns 0..3 of the lane, odd lanes 4..7
  .set _lane, \j / 4
  mac_rows \j, _set_a, (_set_b + (\j % 4)), "quad_perm:[_lane,_lane,_lane+2,_lane+2] row_mask:0xf bank_mask:0xf"
.elseif SHARING == 4
  // row lane 8 (k / 4) + 4 (j / 4) + k % 4 read B(k, column group j / 4)
  .set _lane, 8 * ((\k) / 4) + 4 * (\j / 4) + ((\k) % 4)
  mac_rows \j, _set_a, (v_b + (\j % 4)), "row_newbcast:_lane row_mask:0xf bank_mask:0xf"
.else
  // quad lane 2 (k % 2) + (j / 4) holds B(k, column group j / 4)
  .set _lane, 2 * ((\k) % 2) + (\j / 4)
  mac_rows \j, _set_a, (_set_b + (\j % 4)), "quad_perm:[_lane,_lane,_lane,_lane] row_mask:0xf bank_mask:0xf"
.endif
.endm

// ---- packed fp32 micro kernel (PACKED=1) ---------------------------------
// Column j of the micro tile with 4 packed FMAs: c(i..i+1, j) += a(i..i+1) * b(j).
.macro packed_fma_column k, j
  .set _set_a, v_a + (\k % 2) * 8
  .set _pair_b, v_b + (\k % 2) * B_REGS + 2 * (\j / 2)
  .irp i, 0, 2, 4, 6
  .if (\j % 2) == 0
  v_pk_fma_f32 v[v_c + 8 * \j + \i:v_c + 8 * \j + \i + 1], v[_set_a + \i:_set_a + \i + 1], v[_pair_b:_pair_b + 1], v[v_c + 8 * \j + \i:v_c + 8 * \j + \i + 1] op_sel_hi:[1,0,1]
  .else
  v_pk_fma_f32 v[v_c + 8 * \j + \i:v_c + 8 * \j + \i + 1], v[_set_a + \i:_set_a + \i + 1], v[_pair_b:_pair_b + 1], v[v_c + 8 * \j + \i:v_c + 8 * \j + \i + 1] op_sel:[0,1,0] op_sel_hi:[1,1,1]
  .endif
  .endr
.endm

// One k of the micro kernel; reads for k + 1 go out before the macs of k.
.macro multiply_k k
.if \k + 1 < UNR
  read_a (\k+1)
  read_b (\k+1)
  reads_of_k_is (\k+1)
  s_waitcnt lgkmcnt(_reads)
.else
  s_waitcnt lgkmcnt(0)
.endif
  a_moved_is \k
.if _a_moved
  move_a \k
.endif
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
.if PACKED
  packed_fma_column \k, \j
.elseif \j < MIC
  mac_column \k, \j
.endif
  .endr
.endm

// All UNR k of the LDS stage the read addresses point at.
.macro multiply_tile
  read_a 0
  read_b 0
  .irp k, 0, 1, 2, 3, 4, 5, 6, 7
  multiply_k \k
  .endr
.endm

// ---- matrix-core micro kernel (MFMA=1) -------------------------------------
// The operands of k pair p: A of block row bi in v_a + 2p + bi, B of block
// column bj in v_b + 2p + bj (the lane's address holds its row h and column).
.macro mfma_read_pair p
  .irp bi, 0, 1
  ds_read_b32 v[v_a + 2 * \p + \bi], v[v_lds_read_a] offset:2 * \p * A_ROW_BYTES + 128 * \bi
  .endr
  .irp bj, 0, 1
  ds_read_b32 v[v_b + 2 * \p + \bj], v[v_lds_read_b] offset:A_TILE_BYTES + 2 * \p * B_ROW_BYTES + 128 * \bj
  .endr
.endm
.set MFMA_READS_PER_PAIR, 4

// Block (bi, bj) += A(block row bi, k pair p) B(k pair p, block column bj).
.macro mfma_block p, bi, bj
  .set _blk, v_c + 16 * \bi + 32 * \bj
.if MFMA_ACC_AGPRS
  v_mfma_f32_32x32x2f32 a[_blk:_blk + 15], v[v_a + 2 * \p + \bi], v[v_b + 2 * \p + \bj], a[_blk:_blk + 15]
.else
  v_mfma_f32_32x32x2f32 v[_blk:_blk + 15], v[v_a + 2 * \p + \bi], v[v_b + 2 * \p + \bj], v[_blk:_blk + 15]
.endif
.endm

.macro mfma_pair p
  .irp bj, 0, 1
  mfma_block \p, 0, \bj
  mfma_block \p, 1, \bj
  .endr
.endm

// All UNR k of the stage: the 16 reads go out first; the 4 MFMAs of pair p
// wait for its reads only (lgkmcnt counts the later pairs' still in flight).
.macro mfma_multiply_tile
  .irp p, 0, 1, 2, 3
  mfma_read_pair \p
  .endr
  .irp p, 0, 1, 2, 3
  s_waitcnt lgkmcnt(MFMA_READS_PER_PAIR * (3 - \p))
  mfma_pair \p
  .endr
.endm

// gfx908: the accumulators from the AGPRs into v_c, where the epilogue takes them.
.macro mfma_accumulators_to_vgprs
.if MFMA_ACC_AGPRS
  .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
  v_accvgpr_read_b32 v[v_c + \i], a[v_c + \i]
  v_accvgpr_read_b32 v[v_c + 32 + \i], a[v_c + 32 + \i]
  .endr
.endif
.endm

// ---- epilogue -------------------------------------------------------------

// v_col_off + j = byte offset of C(row_first, column j) from the tile's
// corner, or OUT_OF_RANGE past N (then the store is dropped).
.macro column_offsets row_first
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
  .if \j >= LANE_COLS
  .elseif MFMA
  v_add_u32 v[v_col_off + \j], 32 * \j, v[v_col_first]
  .elseif SHARING == 0
  v_add_u32 v[v_col_off + \j], (\j / 4) * 64 + (\j % 4), v[v_col_first]
  .else
  v_add_u32 v[v_col_off + \j], \j, v[v_col_first]
  .endif
  .if \j < LANE_COLS
  v_cmp_gt_i32 vcc, s[s_n_left], v[v_col_off + \j]
  v_mul_lo_u32 v[v_col_off + \j], v[v_col_off + \j], s[s_ldc_bytes]
  v_lshl_add_u32 v[v_col_off + \j], v[\row_first], 2, v[v_col_off + \j]
  v_cndmask_b32 v[v_col_off + \j], v[v_out_of_range], v[v_col_off + \j], vcc
  .endif
  .endr
.endm

// C(r, j) for the SET_ROWS rows r of row set `set`, rows row_first + rows + r:
// EXEC selects lanes whose row is inside M; the column offsets hold row_first.
.macro store_row_set op, set, row_first, rows
  .irp r, 0, 1, 2, 3
  .if \r < SET_ROWS
  s_sub_i32 s[s_tmp], s[s_m_left], \rows + \r
  s_mov_b64 exec, -1
  v_cmp_gt_i32 vcc, s[s_tmp], v[\row_first]
  s_mov_b64 exec, vcc                              // SALU, not v_cmpx: a VALU write of EXEC needs 5 wait states before VMEM
  \op (\set*SET_ROWS+\r), ((\rows+\r)*4)
  .endif
  .endr
  s_mov_b64 exec, -1
.endm

// Both row sets: 64 rows apart (SHARING 0..2, 4), or each from its own first row
// (SHARING=3); MICRO_TILE=4 and 2 have one; MFMA=1 eight, 8 rows apart.
.macro store_c op
  column_offsets v_row_first
  store_row_set \op, 0, v_row_first, 0
.if MFMA
  .irp set, 1, 2, 3, 4, 5, 6, 7
  store_row_set \op, \set, v_row_first, 8 * \set
  .endr
.elseif MIC != 8
.elseif SHARING == 3
  column_offsets v_row_first_1
  store_row_set \op, 1, v_row_first_1, 0
.else
  store_row_set \op, 1, v_row_first, 64
.endif
.endm

// beta = 0: C = alpha * acc. For TRANS_A=0 reference BLAS adds the
// alpha-scaled products to C = +0, so a zero result is +0 whatever alpha's
// sign: + 0 gives that (and changes no other value); for TRANS_A=1 it
// computes alpha * (dot product) as the kernel does.
.macro scale_and_store_row i, offset
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
  .if \j < LANE_COLS
  v_mul_f32 v[v_c + LANE_ROWS * \j + \i], s[s_alpha], v[v_c + LANE_ROWS * \j + \i]
  .if !TRANS_A
  v_add_f32 v[v_c + LANE_ROWS * \j + \i], 0, v[v_c + LANE_ROWS * \j + \i]
  .endif
  buffer_store_dword v[v_c + LANE_ROWS * \j + \i], v[v_col_off + \j], s[s_desc_c:s_desc_c + 3], 0 offen offset:\offset
  .endif
  .endr
.endm

.macro blend_and_store_row i, offset
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
  .if \j < LANE_COLS
  buffer_load_dword v[v_a + \j], v[v_col_off + \j], s[s_desc_c:s_desc_c + 3], 0 offen offset:\offset
  .endif
  .endr
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
  .if \j < LANE_COLS
  v_mul_f32 v[v_c + LANE_ROWS * \j + \i], s[s_alpha], v[v_c + LANE_ROWS * \j + \i]
  .endif
  .endr
  s_waitcnt vmcnt(0)
  .irp j, 0, 1, 2, 3, 4, 5, 6, 7
  .if \j < LANE_COLS
  mac v[v_c + LANE_ROWS * \j + \i], s[s_beta], v[v_a + \j]
  buffer_store_dword v[v_c + LANE_ROWS * \j + \i], v[v_col_off + \j], s[s_desc_c:s_desc_c + 3], 0 offen offset:\offset
  .endif
  .endr
.endm

// MFMA=1, beta != 0: a row set's 4 rows load their 2 C values each at once,
// each row under its own EXEC (kept in s_row_exec), and wait once: 8 waits in
// the epilogue instead of a wait per row.
.macro blend_and_store_row_set set, row_first, rows
  .irp r, 0, 1, 2, 3
  s_sub_i32 s[s_tmp], s[s_m_left], \rows + \r
  s_mov_b64 exec, -1
  v_cmp_gt_i32 vcc, s[s_tmp], v[\row_first]
  s_mov_b64 s[s_row_exec + 2 * \r:s_row_exec + 2 * \r + 1], vcc
  s_mov_b64 exec, vcc
  .irp j, 0, 1
  buffer_load_dword v[v_a + 2 * \r + \j], v[v_col_off + \j], s[s_desc_c:s_desc_c + 3], 0 offen offset:(\rows + \r) * 4
  .endr
  .endr
  s_mov_b64 exec, -1
  .irp r, 0, 1, 2, 3
  .irp j, 0, 1
  v_mul_f32 v[v_c + LANE_ROWS * \j + 4 * \set + \r], s[s_alpha], v[v_c + LANE_ROWS * \j + 4 * \set + \r]
  .endr
  .endr
  s_waitcnt vmcnt(0)
  .irp r, 0, 1, 2, 3
  s_mov_b64 exec, s[s_row_exec + 2 * \r:s_row_exec + 2 * \r + 1]
  .irp j, 0, 1
  mac v[v_c + LANE_ROWS * \j + 4 * \set + \r], s[s_beta], v[v_a + 2 * \r + \j]
  buffer_store_dword v[v_c + LANE_ROWS * \j + 4 * \set + \r], v[v_col_off + \j], s[s_desc_c:s_desc_c + 3], 0 offen offset:(\rows + \r) * 4
  .endr
  .endr
  s_mov_b64 exec, -1
.endm

.macro mfma_blend_and_store_c
  column_offsets v_row_first
  .irp set, 0, 1, 2, 3, 4, 5, 6, 7
  blend_and_store_row_set \set, v_row_first, 8 * \set
  .endr
.endm

// The kernel descriptor; `extra`, `extra2` carry target-only directives (.if is
// not allowed inside an .amdhsa_kernel block).
.macro kernel_descriptor name, extra="", extra2=""
.amdhsa_kernel \name
  .amdhsa_group_segment_fixed_size LDS_BYTES
  .amdhsa_kernarg_size KARGS_SIZE
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_next_free_vgpr VGPR_COUNT
  .amdhsa_next_free_sgpr SGPR_COUNT
  .amdhsa_reserve_vcc 1
  .amdhsa_float_denorm_mode_32 FP32_DENORM_MODE
  .amdhsa_float_denorm_mode_16_64 3
  \extra
  \extra2
.end_amdhsa_kernel
.endm

// ---- lane coordinates ------------------------------------------------------

// v_tmp = x, v_tmp + 1 = y of this lane (header: workitem layout).
.macro lane_xy
.if SHARING == 3
  v_bfe_u32 v[v_tmp], v[v_tid], 4, 2
  v_and_b32 v[v_tmp + 2], 3, v[v_tid]
  v_lshl_add_u32 v[v_tmp], v[v_tmp], 2, v[v_tmp + 2]     // x = 4 ((tid / 16) % 4) + tid % 4
  v_lshrrev_b32 v[v_tmp + 1], 6, v[v_tid]
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 2, 2
  v_lshl_add_u32 v[v_tmp + 1], v[v_tmp + 1], 2, v[v_tmp + 2]  // y = 4 w + (tid / 4) % 4
.else
  v_and_b32 v[v_tmp], 15, v[v_tid]                  // x
  v_lshrrev_b32 v[v_tmp + 1], 4, v[v_tid]           // y
.endif
.endm

// LDS read addresses (stage 0) of this lane, relative to the A tile / B tile.
.macro lane_read_addresses
.if MFMA
  // l = tid % 64, h = l / 32, w = tid / 64: A row h at m = 64 (w % 2) + l % 32,
  // B row h at n = 64 (w / 2) + l % 32 (header: matrix cores)
  v_and_b32 v[v_tmp], 31, v[v_tid]
  v_bfe_u32 v[v_tmp + 1], v[v_tid], 5, 1
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 6, 1
  v_lshl_add_u32 v[v_tmp + 2], v[v_tmp + 2], 6, v[v_tmp]
  v_mul_u32_u24 v[v_tmp + 3], A_ROW_BYTES, v[v_tmp + 1]
  v_lshl_add_u32 v[v_lds_read_a], v[v_tmp + 2], 2, v[v_tmp + 3]
  v_lshrrev_b32 v[v_tmp + 2], 7, v[v_tid]
  v_lshl_add_u32 v[v_tmp + 2], v[v_tmp + 2], 6, v[v_tmp]
  v_mul_u32_u24 v[v_tmp + 3], B_ROW_BYTES, v[v_tmp + 1]
  v_lshl_add_u32 v[v_lds_read_b], v[v_tmp + 2], 2, v[v_tmp + 3]
  .exitm
.endif
  lane_xy
.if SHARING == 3
  // A: the float4 of row set 0 = rows 8x + 4h, h = Q % 2
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 2, 1
  v_lshlrev_b32 v[v_tmp + 2], 4, v[v_tmp + 2]
  v_lshl_add_u32 v[v_lds_read_a], v[v_tmp], 5, v[v_tmp + 2]
  .if A_HALF_SHARED
  // ... and of row set 1, rows 8x + 4 (1 - h): 32x + 16 (1 - h), the other h
  v_xor_b32 v[v_lds_read_a_other], 16, v[v_lds_read_a]
  .endif
.else
  v_lshlrev_b32 v[v_lds_read_a], LOG2_READ_FLOATS + 2, v[v_tmp]  // 4x floats (MICRO_TILE=2: 2x)
.endif
.if SHARING == 0
  v_lshlrev_b32 v[v_lds_read_b], LOG2_READ_FLOATS + 2, v[v_tmp + 1]  // 4y floats (MICRO_TILE=2: 2y)
.elseif MIC != 8
  // 4y (MICRO_TILE=2: 2y) floats, of row q * B_K_PER_READ / 4 for quad lane q (all in one skew block)
  .if B_K_PER_READ == 2
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 1, 1
  .else
  v_and_b32 v[v_tmp + 2], 3, v[v_tid]
  .endif
  v_mul_u32_u24 v[v_tmp + 2], B_ROW_BYTES, v[v_tmp + 2]
  v_lshl_add_u32 v[v_lds_read_b], v[v_tmp + 1], LOG2_READ_FLOATS + 2, v[v_tmp + 2]
.elseif SHARING == 4
  // row lane i = tid % 16 reads B(k_i, group g_i): k_i = 4 (i / 8) + i % 4,
  // g_i = (i / 4) % 2 (header: LDS layout; B_SKEW_ROWS = 4)
  v_and_b32 v[v_tmp + 2], 3, v[v_tid]
  v_mul_u32_u24 v[v_tmp + 2], B_ROW_BYTES, v[v_tmp + 2]
  v_bfe_u32 v[v_tmp + 3], v[v_tid], 3, 1
  v_mul_u32_u24 v[v_tmp + 3], 4 * B_ROW_BYTES + B_SKEW_BYTES, v[v_tmp + 3]
  v_add_u32 v[v_tmp + 2], v[v_tmp + 3], v[v_tmp + 2]
  v_bfe_u32 v[v_tmp + 3], v[v_tid], 2, 1
  v_lshl_add_u32 v[v_tmp + 2], v[v_tmp + 3], 4, v[v_tmp + 2]
  v_lshl_add_u32 v[v_lds_read_b], v[v_tmp + 1], 5, v[v_tmp + 2]   // + 8y floats
.else
  // quad lane q reads column group q % 2 (columns 8y + 4 (q % 2))
  v_and_b32 v[v_tmp + 2], 1, v[v_tid]
  v_lshlrev_b32 v[v_tmp + 2], 4, v[v_tmp + 2]
  v_lshl_add_u32 v[v_lds_read_b], v[v_tmp + 1], 5, v[v_tmp + 2]
  .if SHARING >= 2
  // ... of row k + q / 2 (k even: the skew of rows k and k + 1 is the same)
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 1, 1
  v_mul_u32_u24 v[v_tmp + 2], B_ROW_BYTES, v[v_tmp + 2]
  v_add_u32 v[v_lds_read_b], v[v_tmp + 2], v[v_lds_read_b]
  .endif
.endif
.endm

// First C row (row set 0) and first column of this lane, for the epilogue.
.macro lane_c_corner
.if MFMA
  v_bfe_u32 v[v_tmp], v[v_tid], 6, 1                // w % 2
  v_bfe_u32 v[v_tmp + 1], v[v_tid], 5, 1            // h
  v_lshlrev_b32 v[v_tmp + 1], 2, v[v_tmp + 1]
  v_lshl_add_u32 v[v_row_first], v[v_tmp], 6, v[v_tmp + 1]   // 64 (w % 2) + 4h
  v_lshrrev_b32 v[v_tmp], 7, v[v_tid]               // w / 2
  v_and_b32 v[v_tmp + 1], 31, v[v_tid]
  v_lshl_add_u32 v[v_col_first], v[v_tmp], 6, v[v_tmp + 1]   // 64 (w / 2) + l % 32
  .exitm
.endif
  lane_xy
.if SHARING == 3
  v_bfe_u32 v[v_tmp + 2], v[v_tid], 2, 1            // h
  v_lshlrev_b32 v[v_tmp], 3, v[v_tmp]               // 8x
  v_lshl_add_u32 v[v_row_first], v[v_tmp + 2], 2, v[v_tmp]
  v_xor_b32 v[v_row_first_1], 4, v[v_row_first]     // 8x + 4 (1 - h)
.else
  v_lshlrev_b32 v[v_row_first], LOG2_READ_FLOATS, v[v_tmp]  // 4x (MICRO_TILE=2: 2x)
.endif
.if SHARING == 0 || MIC != 8
  v_lshlrev_b32 v[v_col_first], LOG2_READ_FLOATS, v[v_tmp + 1]  // 4y (MICRO_TILE=2: 2y)
.else
  v_lshlrev_b32 v[v_col_first], 3, v[v_tmp + 1]     // 8y
.endif
.endm

// ---- the kernel -------------------------------------------------------------

.macro sgemm_kernel name
.text
.globl \name
.p2align 8
.type \name,@function
\name:
  s_load_dwordx8 s[s_ptr_a:s_ptr_a + 7], s[s_kernarg:s_kernarg + 1], KARG_A
  s_load_dwordx4 s[s_k:s_k + 3], s[s_kernarg:s_kernarg + 1], KARG_K
  s_load_dwordx2 s[s_alpha:s_alpha + 1], s[s_kernarg:s_kernarg + 1], KARG_ALPHA

  // gfx90a+ packs the workitem ids into v0; the block is 1-D, keep x.
  v_and_b32 v[v_tid], 0x3ff, v0
  v_mov_b32 v[v_out_of_range], OUT_OF_RANGE
  .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
  .if MFMA_ACC_AGPRS
  v_accvgpr_write_b32 a[v_c + \i], 0
  v_accvgpr_write_b32 a[v_c + 32 + \i], 0
  .elseif \i < LANE_ROWS * LANE_COLS / 2
  v_mov_b32 v[v_c + \i], 0
  v_mov_b32 v[v_c + LANE_ROWS * LANE_COLS / 2 + \i], 0
  .endif
  .endr

  lane_read_addresses
  s_lshl_b32 s[s_wg_m], s[s_wg_m], LOG2_MAC_TILE    // m0 = MACRO_TILE * workgroup id x
  s_lshl_b32 s[s_wg_n], s[s_wg_n], LOG2_MAC_TILE    // n0
  s_movk_i32 s[s_stage_delta], STAGE_BYTES
  s_waitcnt lgkmcnt(0)

  s_sub_u32 s[s_m_left], s[s_m], s[s_wg_m]
  s_sub_u32 s[s_n_left], s[s_n], s[s_wg_n]
  // k steps; none when alpha == 0 (BLAS: A and B are not referenced)
  s_add_u32 s[s_steps], s[s_k], UNR - 1
  s_lshr_b32 s[s_steps], s[s_steps], 3
  s_and_b32 s[s_tmp], s[s_alpha], 0x7fffffff
  s_cmp_eq_u32 s[s_tmp], 0
  s_cselect_b32 s[s_steps], 0, s[s_steps]
  s_mov_b32 s[s_k_left], s[s_k]
  s_cmp_eq_u32 s[s_steps], 0
  s_cbranch_scc1 .Lepilogue

  setup_operand s_desc_a, s_left_a, s_step_a, s_ptr_a, s[s_wg_m], s_m, s_lda, TRANS_A
  setup_operand s_desc_b, s_left_b, s_step_b, s_ptr_b, s[s_wg_n], s_n, s_ldb, (1-TRANS_B)
  setup_operand_lanes v_goff_a, v_lds_write_a, v_k_in_tile_a, s_lda, 0, A_ROW_BYTES, 0, 2, TRANS_A
  setup_operand_lanes v_goff_b, v_lds_write_b, v_k_in_tile_b, s_ldb, A_TILE_BYTES, B_ROW_BYTES, B_SKEW_BYTES, B_SKEW_ROWS, (1-TRANS_B)

  load_tile
  store_tile_to_lds
  v_add_u32 v[v_lds_write_a], STAGE_BYTES, v[v_lds_write_a]
  v_add_u32 v[v_lds_write_b], STAGE_BYTES, v[v_lds_write_b]

.Lmain_loop:
  s_sub_u32 s[s_steps], s[s_steps], 1
  s_cmp_eq_u32 s[s_steps], 0
  s_cbranch_scc1 .Lmultiply                          // last tile: nothing to prefetch
  load_tile                                          // tile k + 1 flies during the macs
.Lmultiply:
.if MFMA
  mfma_multiply_tile
.else
  multiply_tile
.endif
  s_cmp_eq_u32 s[s_steps], 0
  s_cbranch_scc1 .Lepilogue
  store_tile_to_lds
  // swap stages: read what was just stored, store into what was just read
  v_add_u32 v[v_lds_read_a], s[s_stage_delta], v[v_lds_read_a]
  v_add_u32 v[v_lds_read_b], s[s_stage_delta], v[v_lds_read_b]
.if A_HALF_SHARED
  v_add_u32 v[v_lds_read_a_other], s[s_stage_delta], v[v_lds_read_a_other]
.endif
  v_subrev_u32 v[v_lds_write_a], s[s_stage_delta], v[v_lds_write_a]
  v_subrev_u32 v[v_lds_write_b], s[s_stage_delta], v[v_lds_write_b]
  s_sub_i32 s[s_stage_delta], 0, s[s_stage_delta]
  s_branch .Lmain_loop

.Lepilogue:
  // C descriptor: base at (m0, n0), num_records = bytes left in C
  s_sub_u32 s[s_tmp + 2], s[s_n], 1
  mul_u64 s_tmp, s[s_tmp + 2], s[s_ldc]
  s_add_u32 s[s_tmp], s[s_tmp], s[s_m]
  s_addc_u32 s[s_tmp + 1], s[s_tmp + 1], 0           // elements of C
  mul_u64 s_tmp+2, s[s_wg_n], s[s_ldc]
  s_add_u32 s[s_tmp + 2], s[s_tmp + 2], s[s_wg_m]
  s_addc_u32 s[s_tmp + 3], s[s_tmp + 3], 0           // first element of the tile
  s_sub_u32 s[s_left_a], s[s_tmp], s[s_tmp + 2]
  s_subb_u32 s[s_left_a + 1], s[s_tmp + 1], s[s_tmp + 3]
  s_lshl_b64 s[s_left_a:s_left_a + 1], s[s_left_a:s_left_a + 1], 2
  s_lshl_b64 s[s_tmp + 2:s_tmp + 3], s[s_tmp + 2:s_tmp + 3], 2
  s_add_u32 s[s_desc_c], s[s_ptr_c], s[s_tmp + 2]
  s_addc_u32 s[s_desc_c + 1], s[s_ptr_c + 1], s[s_tmp + 3]
  s_and_b32 s[s_desc_c + 1], s[s_desc_c + 1], 0xffff
  clamp_num_records s_desc_c+2, s_left_a
  s_mov_b32 s[s_desc_c + 3], 0x00020000

  lane_c_corner
  s_lshl_b32 s[s_ldc_bytes], s[s_ldc], 2
.if MFMA
  mfma_accumulators_to_vgprs
.endif

  // Reference BLAS's sign of zero. With no products it forms beta C alone
  // (+0 for beta = 0): alpha = 0, and K = 0 for TRANS_A=0, whose column
  // update then only scales C; for TRANS_A=1 and K = 0 its dot-product form
  // gives alpha * 0 + beta C, which the general path computes (acc = +0).
  // No products: acc = +0 (no k step ran), and alpha becomes +0 for beta = 0
  // (C = +0) or -0 otherwise (mac(-0, beta, C) = beta C + -0 = beta C, bit
  // for bit, one rounding); an infinite alpha with K = 0 never reaches acc.
  s_and_b32 s[s_tmp], s[s_alpha], 0x7fffffff
  s_cmp_eq_u32 s[s_tmp], 0
  s_cselect_b32 s[s_tmp + 1], 1, 0                  // 1: no products
.if !TRANS_A
  s_cmp_eq_u32 s[s_k], 0
  s_cselect_b32 s[s_tmp + 1], 1, s[s_tmp + 1]
.endif
  s_and_b32 s[s_tmp], s[s_beta], 0x7fffffff
  s_cmp_eq_u32 s[s_tmp], 0
  s_cselect_b32 s[s_tmp + 2], 0, 0x80000000
  s_cmp_eq_u32 s[s_tmp + 1], 0
  s_cselect_b32 s[s_alpha], s[s_alpha], s[s_tmp + 2]

  // beta == 0: C is not read (NaN in C stays out)
  s_cmp_eq_u32 s[s_tmp], 0
  s_cbranch_scc0 .Lblend
  store_c scale_and_store_row
  s_endpgm
.Lblend:
.if MFMA
  mfma_blend_and_store_c
.else
  store_c blend_and_store_row
.endif
  s_endpgm
.Lend_of_code:
.size \name, .Lend_of_code - \name

.rodata
.p2align 6
.if ARCHITECTED_FLAT_SCRATCH
  kernel_descriptor \name, ".amdhsa_accum_offset VGPR_COUNT"
.elseif ACCUM_OFFSET_REQUIRED
  kernel_descriptor \name, ".amdhsa_accum_offset VGPR_COUNT", ".amdhsa_reserve_flat_scratch 0"
.else
  kernel_descriptor \name, ".amdhsa_reserve_flat_scratch 0"
.endif
.endm

// Code-object metadata: what a generic loader needs (kernarg layout, LDS,
// register counts). Numbers arrive evaluated through .altmacro's %expr.
.macro sgemm_metadata name, lds_bytes, vgprs, agprs, sgprs, kargs_size
.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: \name
    .symbol: \name\().kd
    .kernarg_segment_size: \kargs_size
    .kernarg_segment_align: 8
    .group_segment_fixed_size: \lds_bytes
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: \sgprs
    .vgpr_count: \vgprs
    .agpr_count: \agprs
    .max_flat_workgroup_size: 256
    .args:
      - .name: a
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .actual_access: read_only
      - .name: b
        .offset: 8
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .actual_access: read_only
      - .name: c
        .offset: 16
        .size: 8
        .value_kind: global_buffer
        .address_space: global
      - .name: size_m
        .offset: 24
        .size: 4
        .value_kind: by_value
      - .name: size_n
        .offset: 28
        .size: 4
        .value_kind: by_value
      - .name: size_k
        .offset: 32
        .size: 4
        .value_kind: by_value
      - .name: lda
        .offset: 36
        .size: 4
        .value_kind: by_value
      - .name: ldb
        .offset: 40
        .size: 4
        .value_kind: by_value
      - .name: ldc
        .offset: 44
        .size: 4
        .value_kind: by_value
      - .name: alpha
        .offset: 48
        .size: 4
        .value_kind: by_value
      - .name: beta
        .offset: 52
        .size: 4
        .value_kind: by_value
...
.end_amdgpu_metadata
.endm

// .altmacro turns the %expressions into numbers; the YAML itself must be
// expanded with .altmacro off, which would otherwise eat its quotes.
.macro sgemm_metadata_evaluated name, lds_bytes, vgprs, agprs, sgprs, kargs_size
.noaltmacro
  sgemm_metadata \name, \lds_bytes, \vgprs, \agprs, \sgprs, \kargs_size
.endm

.macro dppgemm_sgemm name
  sgemm_kernel \name
.altmacro
  sgemm_metadata_evaluated \name, %LDS_BYTES, %VGPR_COUNT, %AGPR_COUNT, %(SGPR_COUNT+2), %KARGS_SIZE
.noaltmacro
.endm
