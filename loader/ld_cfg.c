/* ld_cfg.c - successors/predecessors, reachability and reconvergence points.
 *
 * Immediate post-dominators: Cooper, Harvey, Kennedy, "A Simple, Fast
 * Dominance Algorithm", run on the reverse CFG rooted at a virtual exit node
 * that every block ending in OpReturn/OpReturnValue/OpUnreachable/OpKill
 * feeds.  Nothing depends on block order in the file (llvm-spirv may place a
 * loop exit before the loop body).  Blocks that cannot reach the exit (an
 * infinite loop) have no post-dominator: reconverge = NULL. */
#include <string.h>
#include "ld_internal.h"

static bool feeds_exit(SpvOp op) {
  switch (op) {
  case SpvOpReturn: case SpvOpReturnValue: case SpvOpUnreachable: case SpvOpKill:
  case SpvOpTerminateInvocation:
    return true;
  default:
    return false;
  }
}

static void add_succ(const ld_block **list, uint32_t *n, const ld_block *s) {
  for (uint32_t i = 0; i < *n; i++)
    if (list[i] == s) return;
  list[(*n)++] = s;
}

/* Cooper, Harvey and Kennedy's intersection: the nearest common ancestor
 * of nodes a and b in the (post-)dominator tree built so far (dom), walked
 * by post-order number (po). */
static uint32_t intersect(const uint32_t *po, const uint32_t *dom, uint32_t a, uint32_t b) {
  while (a != b) {
    while (po[a] < po[b]) a = dom[a];
    while (po[b] < po[a]) b = dom[b];
  }
  return a;
}

void ld_build_cfg(ld_b *b, ld_function *fn) {
  uint32_t nb = fn->n_blocks;
  if (nb == 0) return;
  ld_block *blocks = (ld_block *)fn->blocks;

  /* successors */
  for (uint32_t i = 0; i < nb; i++) {
    ld_block *blk = &blocks[i];
    const ld_insn *t = &blk->insns[blk->n_insns - 1];
    uint32_t max = 0;
    switch (t->op) {
    case SpvOpBranch: max = 1; break;
    case SpvOpBranchConditional: max = 2; break;
    case SpvOpSwitch: max = t->n_ops; break;
    default: break;
    }
    const ld_block **s = ld_alloc(b, max + 1, sizeof *s);
    uint32_t n = 0;
    switch (t->op) {
    case SpvOpBranch:
      add_succ(s, &n, b->values[t->ops[0]].u.block);
      break;
    case SpvOpBranchConditional: {
      /* checked here, where every value has its type (the condition may be
       * defined in a block further down the file): an integer condition
       * (fuzz_diff: a mutated sg_shuffle branched on a uchar phi) had the
       * interpreter and the JIT take different lanes into the branch */
      const ld_type *ct = b->values[t->ops[0]].type;
      if (!ct || ct->kind != LD_T_BOOL)
        ld_fail(b, LD_ERR_INVALID, "OpBranchConditional ending block %s: the condition %s is not a Boolean",
                ld_id_name(b->m, blk->label), ld_id_name(b->m, t->ops[0]));
      add_succ(s, &n, b->values[t->ops[1]].u.block);
      add_succ(s, &n, b->values[t->ops[2]].u.block);
      break;
    }
    case SpvOpSwitch: {
      const ld_type *st = b->values[t->ops[0]].type;
      uint32_t lw = st->width > 32 ? 2 : 1;
      add_succ(s, &n, b->values[t->ops[1]].u.block);
      for (uint32_t k = 2; k + lw < t->n_ops; k += lw + 1)
        add_succ(s, &n, b->values[t->ops[k + lw]].u.block);
      break;
    }
    default:
      break;
    }
    blk->succs = s;
    blk->n_succs = n;
  }

  /* predecessors */
  uint32_t *cnt = ld_alloc(b, nb, sizeof *cnt);
  for (uint32_t i = 0; i < nb; i++)
    for (uint32_t k = 0; k < blocks[i].n_succs; k++) cnt[blocks[i].succs[k]->index]++;
  for (uint32_t i = 0; i < nb; i++) {
    blocks[i].preds = ld_alloc(b, cnt[i] + 1, sizeof(ld_block *));
    blocks[i].n_preds = 0;
  }
  for (uint32_t i = 0; i < nb; i++)
    for (uint32_t k = 0; k < blocks[i].n_succs; k++) {
      ld_block *s = &blocks[blocks[i].succs[k]->index];
      ((const ld_block **)s->preds)[s->n_preds++] = &blocks[i];
    }

  /* Reachability from the entry and the post-order of the CFG from it
   * (iterative DFS), then the immediate dominators (the same algorithm as
   * the post-dominators below) and a depth-first numbering of the dominator
   * tree for ld_dominates. */
  {
    uint32_t *fpo = ld_alloc(b, nb + 1, sizeof *fpo);    /* block -> postorder number, 0 = unreached */
    uint32_t *ford = ld_alloc(b, nb + 1, sizeof *ford);   /* postorder number - 1 -> block */
    uint32_t *fnext = ld_alloc(b, nb + 1, sizeof *fnext);
    uint32_t *fst = ld_alloc(b, nb + 1, sizeof *fst);
    uint32_t nfo = 0, fsp = 0;
    fst[fsp++] = 0;
    blocks[0].reachable = true;
    while (fsp) {
      uint32_t x = fst[fsp - 1];
      if (fnext[x] < blocks[x].n_succs) {
        uint32_t y = blocks[x].succs[fnext[x]++]->index;
        if (!blocks[y].reachable) { blocks[y].reachable = true; fst[fsp++] = y; }
      } else {
        fsp--;
        ford[nfo] = x;
        fpo[x] = ++nfo;
      }
    }
    uint32_t none = UINT32_MAX;
    uint32_t *idom = ld_alloc(b, nb + 1, sizeof *idom);
    for (uint32_t i = 0; i < nb; i++) idom[i] = none;
    idom[0] = 0;
    for (bool ch = true; ch;) {
      ch = false;
      for (uint32_t r = nfo; r-- > 0;) {
        uint32_t x = ford[r];
        if (x == 0) continue;
        uint32_t nd = none;
        for (uint32_t k = 0; k < blocks[x].n_preds; k++) {
          uint32_t p = blocks[x].preds[k]->index;
          if (!fpo[p] || idom[p] == none) continue;
          nd = nd == none ? p : intersect(fpo, idom, p, nd);
        }
        if (nd != idom[x]) { idom[x] = nd; ch = true; }
      }
    }
    /* children lists (by counting), then an iterative preorder/postorder */
    uint32_t *cstart = ld_alloc(b, nb + 2, sizeof *cstart), *kids = ld_alloc(b, nb + 1, sizeof *kids);
    for (uint32_t i = 1; i < nb; i++)
      if (idom[i] != none) cstart[idom[i] + 1]++;
    for (uint32_t i = 0; i < nb; i++) cstart[i + 1] += cstart[i];
    uint32_t *fill = ld_alloc(b, nb + 1, sizeof *fill);
    for (uint32_t i = 1; i < nb; i++)
      if (idom[i] != none) kids[cstart[idom[i]] + fill[idom[i]]++] = i;
    uint32_t clock = 1;
    memset(fnext, 0, (nb + 1) * sizeof *fnext);
    fsp = 0;
    fst[fsp++] = 0;
    blocks[0].dom_pre = clock++;
    while (fsp) {
      uint32_t x = fst[fsp - 1];
      if (fnext[x] < cstart[x + 1] - cstart[x]) {
        uint32_t y = kids[cstart[x] + fnext[x]++];
        blocks[y].dom_pre = clock++;
        fst[fsp++] = y;
      } else {
        blocks[x].dom_post = clock++;
        fsp--;
      }
    }
  }

  /* Post-order of the reverse CFG from the virtual exit (node nb).
   * Reverse-graph successors of a block are its CFG predecessors; those of
   * the exit are the blocks that feed it. */
  uint32_t exit = nb;
  uint32_t *po = ld_alloc(b, nb + 2, sizeof *po);        /* node -> postorder number, 0 = unvisited */
  uint32_t *order = ld_alloc(b, nb + 2, sizeof *order);  /* postorder number - 1 -> node */
  uint32_t *next = ld_alloc(b, nb + 2, sizeof *next);    /* DFS edge cursor */
  uint32_t *dstack = ld_alloc(b, nb + 2, sizeof *dstack);
  uint8_t *seen = ld_alloc(b, nb + 2, 1);
  uint32_t *exit_preds = ld_alloc(b, nb + 1, sizeof *exit_preds);
  uint32_t n_exit_preds = 0;
  for (uint32_t i = 0; i < nb; i++)
    if (feeds_exit(blocks[i].insns[blocks[i].n_insns - 1].op)) exit_preds[n_exit_preds++] = i;
  uint32_t n_po = 0, dsp = 0;
  dstack[dsp++] = exit;
  seen[exit] = 1;
  while (dsp) {
    uint32_t x = dstack[dsp - 1];
    uint32_t deg = x == exit ? n_exit_preds : blocks[x].n_preds;
    if (next[x] < deg) {
      uint32_t y = x == exit ? exit_preds[next[x]] : blocks[x].preds[next[x]]->index;
      next[x]++;
      if (!seen[y]) {
        seen[y] = 1;
        dstack[dsp++] = y;
      }
    } else {
      dsp--;
      order[n_po] = x;
      po[x] = ++n_po;
    }
  }

  /* CHK: ipdom[x] over reverse-postorder, predecessors in the reverse graph
   * are the CFG successors (plus the exit for exit-feeding blocks). */
  uint32_t undef = UINT32_MAX;
  uint32_t *ipd = ld_alloc(b, nb + 2, sizeof *ipd);
  for (uint32_t i = 0; i <= nb; i++) ipd[i] = undef;
  ipd[exit] = exit;
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t r = n_po; r-- > 0;) {
      uint32_t x = order[r];
      if (x == exit) continue;
      uint32_t nd = undef;
      const ld_block *blk = &blocks[x];
      uint32_t deg = blk->n_succs + (feeds_exit(blk->insns[blk->n_insns - 1].op) ? 1 : 0);
      for (uint32_t k = 0; k < deg; k++) {
        uint32_t p = k < blk->n_succs ? blk->succs[k]->index : exit;
        if (!po[p] || ipd[p] == undef) continue;
        nd = nd == undef ? p : intersect(po, ipd, p, nd);
      }
      if (nd != ipd[x]) {
        ipd[x] = nd;
        changed = true;
      }
    }
  }

  /* A loop header's own branch may select between two blocks inside the loop
   * (llvm-spirv-15 at -O1: OpLoopMerge %exit %latch, then
   * OpBranchConditional %c %if_then %latch): those lanes must meet again at
   * the immediate post-dominator (the latch, where a barrier may be), not
   * only at the loop's exit.  In the usual header (one target is the merge)
   * the post-dominator is the merge anyway; the merge is kept when there is no
   * post-dominator inside the function (a path returns). */
  for (uint32_t i = 0; i < nb; i++) {
    ld_block *blk = &blocks[i];
    bool has_ipd = po[i] && ipd[i] != undef && ipd[i] != exit;
    if (blk->merge && !(blk->loop_continue && has_ipd)) blk->reconverge = blk->merge;
    else if (!has_ipd) blk->reconverge = NULL;
    else blk->reconverge = &blocks[ipd[i]];
  }
}

bool ld_dominates(const ld_block *a, const ld_block *b) {
  return a && b && a->dom_pre && b->dom_pre && a->dom_pre <= b->dom_pre && b->dom_post <= a->dom_post;
}
