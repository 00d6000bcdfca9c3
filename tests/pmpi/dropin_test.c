// SPDX-License-Identifier: BSD-3-Clause
/* A plain C MPI program that knows nothing of the collectives library: run under
 * LD_PRELOAD=libcollectives_mpi.so (or linked with it), it calls every collective the drop-in
 * serves and checks each result against its own serial computation, byte for byte.
 *
 *   dropin_test            the matrix: 16 collectives x types {MPI_INT, MPI_DOUBLE, MPI_FLOAT, a
 *                          contiguous type, a strided vector, MPI_DOUBLE_INT, a 2x2 matrix} x
 *                          ops {MPI_SUM, MPI_MAX, a user op, MPI_MINLOC, a non-commutative user
 *                          op} x roots {0, middle, last} x counts {0, 1, 7, 100003 (world, MPI_INT
 *                          and MPI_DOUBLE only)} x every MPI_IN_PLACE form x {world, split halves}; the v-variants
 *                          (and MPI_Reduce_scatter) with uneven counts, zero on every third
 *                          rank, blocks out of rank order with gaps that must stay untouched
 *   dropin_test errors     bad arguments with MPI_ERRORS_RETURN: the right error class, and the
 *                          communicator still works
 *   dropin_test fatal      a bad root with MPI_ERRORS_ARE_FATAL: the job stops (checked outside)
 *   dropin_test report     a known set of calls whose report the test script checks
 *   dropin_test fastest    all-reduces at sizes check.sh's table sends to vendor or to the library
 *   dropin_test threads    two threads, each on its own communicator, at once
 *   dropin_test reuse      a user op and a derived datatype, each freed and replaced by one of
 *                          another kind (commutative or not; contiguous or strided), so that MPI
 *                          may hand the freed handle out again: the drop-in keeps what it learns
 *                          of predefined handles only, and must see the new op and type as they are;
 *                          then a communicator served on, freed, and an intercommunicator made
 *   dropin_test repeat     every collective without counts three times with one shape and new
 *                          buffers and values; then a null buffer in a shape served before
 *
 * Receive buffers start filled with a sentinel: the holes of a strided type, and everything a
 * rank must not receive, have to keep it. Every rank's failure count is summed at the end. */
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static const unsigned char sentinel = 0xEE;

#define CHECK(cond, ...)                                      \
  do {                                                        \
    if (!(cond)) {                                            \
      if (++failures <= 10) {                                 \
        fprintf(stderr, "dropin_test: FAILED: " __VA_ARGS__); \
        fputc('\n', stderr);                                  \
      }                                                       \
    }                                                         \
  } while (0)

/* ---- types: an MPI datatype plus which bytes of one element are data (the rest are holes) ---- */

struct double_int {
  double d;
  int i;
};

typedef struct {
  const char* name;
  MPI_Datatype type;
  size_t extent;          /* bytes per element in memory */
  unsigned char mask[32]; /* 1 = data byte */
} test_type;

enum { T_INT, T_DOUBLE, T_FLOAT, T_CONTIG, T_VECTOR, T_DOUBLE_INT, T_MATRIX, T_COUNT };
static test_type types[T_COUNT];

static void set_type(int id, const char* name, MPI_Datatype t) {
  MPI_Aint lb, extent;
  int size, i, data = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_size(t, &size);
  types[id].name = name;
  types[id].type = t;
  types[id].extent = (size_t)extent;
  for (i = 0; i < (int)extent; ++i) types[id].mask[i] = 1;
  if (id == T_VECTOR) /* ints at 0 and 2 of 3 */
    for (i = 4; i < 8; ++i) types[id].mask[i] = 0;
  if (id == T_DOUBLE_INT)
    for (i = (int)(offsetof(struct double_int, i) + sizeof(int)); i < (int)extent; ++i) types[id].mask[i] = 0;
  for (i = 0; i < (int)extent; ++i) data += types[id].mask[i];
  if (data != size) {
    fprintf(stderr, "dropin_test: type %s: %d data bytes in the mask, MPI_Type_size %d\n", name, data, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

static void make_types(void) {
  MPI_Datatype contig, vector, matrix;
  MPI_Type_contiguous(3, MPI_INT, &contig);
  MPI_Type_commit(&contig);
  MPI_Type_vector(2, 1, 2, MPI_INT, &vector); /* ints 0 and 2; extent 3 ints */
  MPI_Type_commit(&vector);
  MPI_Type_contiguous(4, MPI_UNSIGNED, &matrix);
  MPI_Type_commit(&matrix);
  set_type(T_INT, "MPI_INT", MPI_INT);
  set_type(T_DOUBLE, "MPI_DOUBLE", MPI_DOUBLE);
  set_type(T_FLOAT, "MPI_FLOAT", MPI_FLOAT);
  set_type(T_CONTIG, "contiguous(3, MPI_INT)", contig);
  set_type(T_VECTOR, "vector(2, 1, 2, MPI_INT)", vector);
  set_type(T_DOUBLE_INT, "MPI_DOUBLE_INT", MPI_DOUBLE_INT);
  set_type(T_MATRIX, "2x2 matrix", matrix);
}

/* Data bytes unique to (rank, element, byte); holes get the sentinel. */
static unsigned char byte_value(int rank, size_t element, size_t byte) {
  return (unsigned char)((rank * 131u + element * 31u + byte * 7u + 1u) % 251u);
}

static unsigned char* alloc_bytes(size_t n) {
  unsigned char* p = malloc(n ? n : 1);
  memset(p, sentinel, n ? n : 1);
  return p;
}

static void fill_block(unsigned char* buf, const test_type* t, size_t count, int rank, size_t first_element) {
  size_t e, b;
  for (e = 0; e < count; ++e)
    for (b = 0; b < t->extent; ++b)
      buf[e * t->extent + b] = t->mask[b] ? byte_value(rank, first_element + e, b) : sentinel;
}

/* Compares `count` elements of `got` with what fill_block(rank, first_element) wrote. */
static int block_ok(const unsigned char* got, const test_type* t, size_t count, int rank,
                    size_t first_element) {
  size_t e, b;
  for (e = 0; e < count; ++e)
    for (b = 0; b < t->extent; ++b) {
      const unsigned char want = t->mask[b] ? byte_value(rank, first_element + e, b) : sentinel;
      if (got[e * t->extent + b] != want) return 0;
    }
  return 1;
}

static int untouched(const unsigned char* p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (p[i] != sentinel) return 0;
  return 1;
}

/* ---- the data-moving collectives, checked byte for byte ---- */

typedef struct {
  MPI_Comm comm;
  const char* name;
  int rank, size;
} comm_t;

static void test_bcast(const comm_t* c, const test_type* t, int count, int root) {
  const size_t bytes = (size_t)count * t->extent;
  unsigned char* buf = alloc_bytes(bytes);
  if (c->rank == root) fill_block(buf, t, (size_t)count, root, 0);
  MPI_Bcast(buf, count, t->type, root, c->comm);
  CHECK(block_ok(buf, t, (size_t)count, root, 0), "MPI_Bcast %s count %d root %d on %s", t->name, count, root,
        c->name);
  free(buf);
}

static void test_scatter(const comm_t* c, const test_type* t, int count, int root, int in_place) {
  const size_t block = (size_t)count * t->extent, p = (size_t)c->size;
  unsigned char* send = alloc_bytes(p * block);
  unsigned char* recv = alloc_bytes(block);
  size_t r;
  if (c->rank == root)
    for (r = 0; r < p; ++r) fill_block(send + r * block, t, (size_t)count, (int)r, 0);
  if (in_place && c->rank == root) {
    MPI_Scatter(send, count, t->type, MPI_IN_PLACE, count, t->type, root, c->comm);
    CHECK(block_ok(send + (size_t)root * block, t, (size_t)count, root, 0) && untouched(recv, block),
          "MPI_Scatter in place %s count %d root %d on %s", t->name, count, root, c->name);
  } else {
    MPI_Scatter(send, count, t->type, recv, count, t->type, root, c->comm);
    CHECK(block_ok(recv, t, (size_t)count, c->rank, 0), "MPI_Scatter%s %s count %d root %d on %s",
          in_place ? " (root in place)" : "", t->name, count, root, c->name);
  }
  free(send);
  free(recv);
}

static void test_gather(const comm_t* c, const test_type* t, int count, int root, int in_place) {
  const size_t block = (size_t)count * t->extent, p = (size_t)c->size;
  unsigned char* send = alloc_bytes(block);
  unsigned char* recv = alloc_bytes(p * block);
  size_t r;
  int ok = 1;
  fill_block(send, t, (size_t)count, c->rank, 0);
  if (in_place && c->rank == root) {
    fill_block(recv + (size_t)root * block, t, (size_t)count, root, 0);
    MPI_Gather(MPI_IN_PLACE, count, t->type, recv, count, t->type, root, c->comm);
  } else {
    MPI_Gather(send, count, t->type, recv, count, t->type, root, c->comm);
  }
  if (c->rank == root)
    for (r = 0; r < p; ++r) ok = ok && block_ok(recv + r * block, t, (size_t)count, (int)r, 0);
  else
    ok = untouched(recv, p * block);
  CHECK(ok, "MPI_Gather%s %s count %d root %d on %s", in_place ? " (root in place)" : "", t->name, count,
        root, c->name);
  free(send);
  free(recv);
}

static void test_allgather(const comm_t* c, const test_type* t, int count, int in_place) {
  const size_t block = (size_t)count * t->extent, p = (size_t)c->size;
  unsigned char* send = alloc_bytes(block);
  unsigned char* recv = alloc_bytes(p * block);
  size_t r;
  int ok = 1;
  if (in_place) {
    fill_block(recv + (size_t)c->rank * block, t, (size_t)count, c->rank, 0);
    MPI_Allgather(MPI_IN_PLACE, count, t->type, recv, count, t->type, c->comm);
  } else {
    fill_block(send, t, (size_t)count, c->rank, 0);
    MPI_Allgather(send, count, t->type, recv, count, t->type, c->comm);
  }
  for (r = 0; r < p; ++r) ok = ok && block_ok(recv + r * block, t, (size_t)count, (int)r, 0);
  CHECK(ok, "MPI_Allgather%s %s count %d on %s", in_place ? " in place" : "", t->name, count, c->name);
  free(send);
  free(recv);
}

/* Rank r's block for rank d: elements d*count .. of rank r's numbering. */
static void test_alltoall(const comm_t* c, const test_type* t, int count, int in_place) {
  const size_t block = (size_t)count * t->extent, p = (size_t)c->size;
  unsigned char* send = alloc_bytes(p * block);
  unsigned char* recv = alloc_bytes(p * block);
  size_t r;
  int ok = 1;
  unsigned char* input = in_place ? recv : send;
  for (r = 0; r < p; ++r) fill_block(input + r * block, t, (size_t)count, c->rank, r * (size_t)count);
  MPI_Alltoall(in_place ? MPI_IN_PLACE : send, count, t->type, recv, count, t->type, c->comm);
  for (r = 0; r < p; ++r)
    ok = ok && block_ok(recv + r * block, t, (size_t)count, (int)r, (size_t)c->rank * (size_t)count);
  CHECK(ok, "MPI_Alltoall%s %s count %d on %s", in_place ? " in place" : "", t->name, count, c->name);
  free(send);
  free(recv);
}

/* ---- the v-variants: uneven counts (zero on some ranks), blocks out of rank order with gaps ---- */

/* Rank r's block for the v-variants with base count n: 0 for every third rank, else n + r % 4. */
static int v_count(int r, int n) { return n == 0 || r % 3 == 1 ? 0 : n + r % 4; }

/* Blocks in reverse rank order, one element of gap after each: returns the span in elements. */
static size_t v_layout(int p, int n, int* counts, int* displs) {
  int r, at = 0;
  for (r = p - 1; r >= 0; --r) {
    counts[r] = v_count(r, n);
    displs[r] = at;
    at += counts[r] + 1;
  }
  return (size_t)at;
}

static void test_gatherv(const comm_t* c, const test_type* t, int n, int root, int in_place) {
  const size_t p = (size_t)c->size;
  int* counts = malloc(p * sizeof(int));
  int* displs = malloc(p * sizeof(int));
  const size_t span = v_layout(c->size, n, counts, displs) * t->extent;
  const int mine = counts[c->rank];
  unsigned char* send = alloc_bytes((size_t)mine * t->extent);
  unsigned char* recv = alloc_bytes(span);
  unsigned char* want = alloc_bytes(span);
  size_t r;
  fill_block(send, t, (size_t)mine, c->rank, 0);
  for (r = 0; r < p; ++r) fill_block(want + (size_t)displs[r] * t->extent, t, (size_t)counts[r], (int)r, 0);
  if (in_place && c->rank == root) {
    fill_block(recv + (size_t)displs[root] * t->extent, t, (size_t)mine, root, 0);
    MPI_Gatherv(MPI_IN_PLACE, mine, t->type, recv, counts, displs, t->type, root, c->comm);
  } else {
    MPI_Gatherv(send, mine, t->type, recv, counts, displs, t->type, root, c->comm);
  }
  CHECK(c->rank == root ? memcmp(recv, want, span) == 0 : untouched(recv, span),
        "MPI_Gatherv%s %s count %d root %d on %s", in_place ? " (root in place)" : "", t->name, n, root,
        c->name);
  free(counts), free(displs), free(send), free(recv), free(want);
}

static void test_scatterv(const comm_t* c, const test_type* t, int n, int root, int in_place) {
  const size_t p = (size_t)c->size;
  int* counts = malloc(p * sizeof(int));
  int* displs = malloc(p * sizeof(int));
  const size_t span = v_layout(c->size, n, counts, displs) * t->extent;
  const int mine = counts[c->rank];
  const size_t block = (size_t)mine * t->extent;
  unsigned char* send = alloc_bytes(span);
  unsigned char* recv = alloc_bytes(block);
  size_t r;
  if (c->rank == root)
    for (r = 0; r < p; ++r) fill_block(send + (size_t)displs[r] * t->extent, t, (size_t)counts[r], (int)r, 0);
  if (in_place && c->rank == root) {
    MPI_Scatterv(send, counts, displs, t->type, MPI_IN_PLACE, mine, t->type, root, c->comm);
    CHECK(
        block_ok(send + (size_t)displs[root] * t->extent, t, (size_t)mine, root, 0) && untouched(recv, block),
        "MPI_Scatterv in place %s count %d root %d on %s", t->name, n, root, c->name);
  } else {
    MPI_Scatterv(send, counts, displs, t->type, recv, mine, t->type, root, c->comm);
    CHECK(block_ok(recv, t, (size_t)mine, c->rank, 0), "MPI_Scatterv%s %s count %d root %d on %s",
          in_place ? " (root in place)" : "", t->name, n, root, c->name);
  }
  free(counts), free(displs), free(send), free(recv);
}

static void test_allgatherv(const comm_t* c, const test_type* t, int n, int in_place) {
  const size_t p = (size_t)c->size;
  int* counts = malloc(p * sizeof(int));
  int* displs = malloc(p * sizeof(int));
  const size_t span = v_layout(c->size, n, counts, displs) * t->extent;
  const int mine = counts[c->rank];
  unsigned char* send = alloc_bytes((size_t)mine * t->extent);
  unsigned char* recv = alloc_bytes(span);
  unsigned char* want = alloc_bytes(span);
  size_t r;
  for (r = 0; r < p; ++r) fill_block(want + (size_t)displs[r] * t->extent, t, (size_t)counts[r], (int)r, 0);
  if (in_place) {
    fill_block(recv + (size_t)displs[c->rank] * t->extent, t, (size_t)mine, c->rank, 0);
    MPI_Allgatherv(MPI_IN_PLACE, mine, t->type, recv, counts, displs, t->type, c->comm);
  } else {
    fill_block(send, t, (size_t)mine, c->rank, 0);
    MPI_Allgatherv(send, mine, t->type, recv, counts, displs, t->type, c->comm);
  }
  CHECK(memcmp(recv, want, span) == 0, "MPI_Allgatherv%s %s count %d on %s", in_place ? " in place" : "",
        t->name, n, c->name);
  free(counts), free(displs), free(send), free(recv), free(want);
}

/* Rank i sends rank j a block of a2a_count(i, j, n) elements (symmetric, as MPI_IN_PLACE needs;
 * zero for some pairs), numbered from j * 1000 in rank i's numbering. Send blocks lie in reverse
 * rank order, receive blocks in rank order, each with one element of gap. */
static int a2a_count(int i, int j, int n) { return n == 0 || (i + j) % 3 == 1 ? 0 : n + (i + j) % 4; }

static void test_alltoallv(const comm_t* c, const test_type* t, int n, int in_place) {
  const int p = c->size, me = c->rank;
  int* sc = malloc((size_t)p * sizeof(int));
  int* sd = malloc((size_t)p * sizeof(int));
  int* rc = malloc((size_t)p * sizeof(int));
  int* rd = malloc((size_t)p * sizeof(int));
  int j, at = 0, ok = 1;
  size_t sspan, rspan;
  unsigned char *send, *recv, *input;
  for (j = p - 1; j >= 0; --j) sc[j] = a2a_count(me, j, n), sd[j] = at, at += sc[j] + 1;
  sspan = (size_t)at * t->extent;
  for (j = 0, at = 0; j < p; ++j) rc[j] = a2a_count(j, me, n), rd[j] = at, at += rc[j] + 1;
  rspan = (size_t)at * t->extent;
  send = alloc_bytes(sspan);
  recv = alloc_bytes(rspan);
  input = in_place ? recv : send;
  for (j = 0; j < p; ++j)
    fill_block(input + (size_t)(in_place ? rd[j] : sd[j]) * t->extent, t, (size_t)sc[j], me,
               (size_t)j * 1000);
  MPI_Alltoallv(in_place ? MPI_IN_PLACE : send, sc, sd, t->type, recv, rc, rd, t->type, c->comm);
  for (j = 0; j < p; ++j) {
    const unsigned char* gap = recv + (size_t)(rd[j] + rc[j]) * t->extent;
    ok = ok && block_ok(recv + (size_t)rd[j] * t->extent, t, (size_t)rc[j], j, (size_t)me * 1000) &&
         untouched(gap, t->extent);
  }
  CHECK(ok, "MPI_Alltoallv%s %s count %d on %s", in_place ? " in place" : "", t->name, n, c->name);
  free(sc), free(sd), free(rc), free(rd), free(send), free(recv);
}

/* ---- reductions: typed inputs, a serial fold in rank order as the oracle ---- */

enum {
  R_INT_SUM,
  R_INT_MAX,
  R_DOUBLE_SUM,
  R_FLOAT_SUM,
  R_CONTIG_USER,
  R_VECTOR_USER,
  R_MINLOC,
  R_MATRIX,
  R_COUNT
};
static MPI_Op user_sum_op, matrix_op;

/* A commutative user op: element-wise int sum over whatever ints the datatype holds. */
static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  int* a = in;
  int* b = inout;
  int i;
  if (*type == types[T_VECTOR].type) {
    for (i = 0; i < *len; ++i) {
      b[3 * i] += a[3 * i];
      b[3 * i + 2] += a[3 * i + 2];
    }
  } else {
    for (i = 0; i < 3 * *len; ++i) b[i] += a[i];
  }
}

/* inout = in x inout: 2x2 matrix product, not commutative. */
static void matrix_product(void* in, void* inout, int* len, MPI_Datatype* type) {
  const unsigned* a = in;
  unsigned* b = inout;
  int i;
  (void)type;
  for (i = 0; i < *len; ++i, a += 4, b += 4) {
    const unsigned r0 = a[0] * b[0] + a[1] * b[2], r1 = a[0] * b[1] + a[1] * b[3];
    const unsigned r2 = a[2] * b[0] + a[3] * b[2], r3 = a[2] * b[1] + a[3] * b[3];
    b[0] = r0, b[1] = r1, b[2] = r2, b[3] = r3;
  }
}

typedef struct {
  const char* name;
  int type;
  MPI_Op* op;
  MPI_Op predefined;
} reduction_case;

static reduction_case reduction_cases[R_COUNT];

static void make_reductions(void) {
  MPI_Op_create(&user_sum, 1, &user_sum_op);
  MPI_Op_create(&matrix_product, 0, &matrix_op);
  reduction_cases[R_INT_SUM] = (reduction_case){"MPI_INT MPI_SUM", T_INT, NULL, MPI_SUM};
  reduction_cases[R_INT_MAX] = (reduction_case){"MPI_INT MPI_MAX", T_INT, NULL, MPI_MAX};
  reduction_cases[R_DOUBLE_SUM] = (reduction_case){"MPI_DOUBLE MPI_SUM", T_DOUBLE, NULL, MPI_SUM};
  reduction_cases[R_FLOAT_SUM] = (reduction_case){"MPI_FLOAT MPI_SUM", T_FLOAT, NULL, MPI_SUM};
  reduction_cases[R_CONTIG_USER] =
      (reduction_case){"contiguous user sum", T_CONTIG, &user_sum_op, MPI_OP_NULL};
  reduction_cases[R_VECTOR_USER] = (reduction_case){"vector user sum", T_VECTOR, &user_sum_op, MPI_OP_NULL};
  reduction_cases[R_MINLOC] = (reduction_case){"MPI_DOUBLE_INT MPI_MINLOC", T_DOUBLE_INT, NULL, MPI_MINLOC};
  reduction_cases[R_MATRIX] =
      (reduction_case){"2x2 matrix product (non-commutative)", T_MATRIX, &matrix_op, MPI_OP_NULL};
}

static MPI_Op op_of(const reduction_case* rc) { return rc->op ? *rc->op : rc->predefined; }

/* Rank r's input: element e of `count`; values small enough to be exact in float. */
static void fill_input(unsigned char* buf, int rc, size_t count, int rank, size_t first) {
  const test_type* t = &types[reduction_cases[rc].type];
  size_t e;
  memset(buf, sentinel, count * t->extent);
  for (e = 0; e < count; ++e) {
    const size_t g = first + e;
    unsigned char* at = buf + e * t->extent;
    const int v = (int)((rank * 7 + g * 3) % 101) - 50;
    switch (rc) {
      case R_INT_SUM:
      case R_INT_MAX:
        memcpy(at, &v, sizeof v);
        break;
      case R_DOUBLE_SUM: {
        const double d = v * 1024.0 + 0.5;
        memcpy(at, &d, sizeof d);
        break;
      }
      case R_FLOAT_SUM: {
        const float f = (float)v + 0.25f;
        memcpy(at, &f, sizeof f);
        break;
      }
      case R_CONTIG_USER: {
        const int x[3] = {v, v * 2 + rank, (int)g};
        memcpy(at, x, sizeof x);
        break;
      }
      case R_VECTOR_USER: {
        const int x0 = v, x2 = v + rank * 1000;
        memcpy(at, &x0, sizeof x0);
        memcpy(at + 8, &x2, sizeof x2);
        break;
      }
      case R_MINLOC: {
        /* Ties on purpose (value depends on g and rank % 3): MINLOC takes the lowest index. */
        struct double_int di;
        memset(&di, 0, sizeof di);
        di.d = (double)((g * 5 + (size_t)(rank % 3) * 11) % 17);
        di.i = rank;
        memcpy(at, &di.d, sizeof di.d);
        memcpy(at + offsetof(struct double_int, i), &di.i, sizeof di.i);
        break;
      }
      case R_MATRIX: {
        const unsigned m[4] = {(unsigned)(rank + 1), (unsigned)(g % 3), (unsigned)((rank + g) % 2), 1u};
        memcpy(at, m, sizeof m);
        break;
      }
    }
  }
}

/* out = x0 ∘ x1 ∘ … ∘ x(p-1) for `count` elements starting at `first`, folded in rank order
 * from the highest rank down (inout = x(r) ∘ inout), as MPI defines it. */
static void serial_reduce(unsigned char* out, int rc, size_t count, int p, size_t first) {
  const test_type* t = &types[reduction_cases[rc].type];
  unsigned char* x = alloc_bytes(count * t->extent);
  int r, len = (int)count;
  MPI_Datatype type = t->type;
  fill_input(out, rc, count, p - 1, first);
  for (r = p - 2; r >= 0; --r) {
    size_t e;
    fill_input(x, rc, count, r, first);
    for (e = 0; e < count; ++e) {
      unsigned char* a = x + e * t->extent;
      unsigned char* b = out + e * t->extent;
      switch (rc) {
        case R_INT_SUM:
        case R_INT_MAX: {
          int u, w;
          memcpy(&u, a, sizeof u);
          memcpy(&w, b, sizeof w);
          w = rc == R_INT_SUM ? u + w : (u > w ? u : w);
          memcpy(b, &w, sizeof w);
          break;
        }
        case R_DOUBLE_SUM: {
          double u, w;
          memcpy(&u, a, sizeof u);
          memcpy(&w, b, sizeof w);
          w = u + w;
          memcpy(b, &w, sizeof w);
          break;
        }
        case R_FLOAT_SUM: {
          float u, w;
          memcpy(&u, a, sizeof u);
          memcpy(&w, b, sizeof w);
          w = u + w;
          memcpy(b, &w, sizeof w);
          break;
        }
        case R_MINLOC: {
          double ud, wd;
          int ui, wi;
          memcpy(&ud, a, sizeof ud);
          memcpy(&wd, b, sizeof wd);
          memcpy(&ui, a + offsetof(struct double_int, i), sizeof ui);
          memcpy(&wi, b + offsetof(struct double_int, i), sizeof wi);
          if (ud < wd || (ud == wd && ui < wi)) {
            memcpy(b, &ud, sizeof ud);
            memcpy(b + offsetof(struct double_int, i), &ui, sizeof ui);
          }
          break;
        }
        default:
          break;
      }
    }
    if (rc == R_CONTIG_USER || rc == R_VECTOR_USER) user_sum(x, out, &len, &type);
    if (rc == R_MATRIX) matrix_product(x, out, &len, &type);
  }
  free(x);
}

static int same_data(const unsigned char* got, const unsigned char* want, const test_type* t, size_t count) {
  size_t e, b;
  for (e = 0; e < count; ++e)
    for (b = 0; b < t->extent; ++b) {
      const size_t i = e * t->extent + b;
      if (t->mask[b] ? got[i] != want[i] : got[i] != sentinel) return 0;
    }
  return 1;
}

static void test_reduce(const comm_t* c, int rc, int count, int root, int in_place) {
  const test_type* t = &types[reduction_cases[rc].type];
  const size_t bytes = (size_t)count * t->extent;
  unsigned char* send = alloc_bytes(bytes);
  unsigned char* recv = alloc_bytes(bytes);
  unsigned char* want = alloc_bytes(bytes);
  int ok;
  fill_input(send, rc, (size_t)count, c->rank, 0);
  if (in_place && c->rank == root) {
    fill_input(recv, rc, (size_t)count, c->rank, 0);
    MPI_Reduce(MPI_IN_PLACE, recv, count, t->type, op_of(&reduction_cases[rc]), root, c->comm);
  } else {
    MPI_Reduce(send, recv, count, t->type, op_of(&reduction_cases[rc]), root, c->comm);
  }
  if (c->rank == root) {
    serial_reduce(want, rc, (size_t)count, c->size, 0);
    ok = same_data(recv, want, t, (size_t)count);
  } else {
    ok = untouched(recv, bytes);
  }
  CHECK(ok, "MPI_Reduce%s %s count %d root %d on %s", in_place ? " (root in place)" : "",
        reduction_cases[rc].name, count, root, c->name);
  free(send);
  free(recv);
  free(want);
}

static void test_allreduce(const comm_t* c, int rc, int count, int in_place) {
  const test_type* t = &types[reduction_cases[rc].type];
  const size_t bytes = (size_t)count * t->extent;
  unsigned char* send = alloc_bytes(bytes);
  unsigned char* recv = alloc_bytes(bytes);
  unsigned char* want = alloc_bytes(bytes);
  if (in_place) {
    fill_input(recv, rc, (size_t)count, c->rank, 0);
    MPI_Allreduce(MPI_IN_PLACE, recv, count, t->type, op_of(&reduction_cases[rc]), c->comm);
  } else {
    fill_input(send, rc, (size_t)count, c->rank, 0);
    MPI_Allreduce(send, recv, count, t->type, op_of(&reduction_cases[rc]), c->comm);
  }
  serial_reduce(want, rc, (size_t)count, c->size, 0);
  CHECK(same_data(recv, want, t, (size_t)count), "MPI_Allreduce%s %s count %d on %s",
        in_place ? " in place" : "", reduction_cases[rc].name, count, c->name);
  free(send);
  free(recv);
  free(want);
}

static void test_reduce_scatter_block(const comm_t* c, int rc, int count, int in_place) {
  const test_type* t = &types[reduction_cases[rc].type];
  const size_t block = (size_t)count * t->extent, p = (size_t)c->size;
  unsigned char* send = alloc_bytes(p * block);
  unsigned char* recv = alloc_bytes(p * block);
  unsigned char* want = alloc_bytes(block);
  unsigned char* input = in_place ? recv : send;
  fill_input(input, rc, p * (size_t)count, c->rank, 0);
  MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : send, recv, count, t->type, op_of(&reduction_cases[rc]),
                           c->comm);
  serial_reduce(want, rc, (size_t)count, c->size, (size_t)c->rank * (size_t)count);
  CHECK(same_data(recv, want, t, (size_t)count), "MPI_Reduce_scatter_block%s %s count %d on %s",
        in_place ? " in place" : "", reduction_cases[rc].name, count, c->name);
  free(send);
  free(recv);
  free(want);
}

/* MPI_Scan (rank r: x0 ∘ … ∘ xr) or MPI_Exscan (x0 ∘ … ∘ x(r−1); rank 0's result undefined). */
static void test_scan(const comm_t* c, int rc, int count, int in_place, int exclusive) {
  const test_type* t = &types[reduction_cases[rc].type];
  const size_t bytes = (size_t)count * t->extent;
  unsigned char* send = alloc_bytes(bytes);
  unsigned char* recv = alloc_bytes(bytes);
  unsigned char* want = alloc_bytes(bytes);
  const MPI_Op op = op_of(&reduction_cases[rc]);
  fill_input(in_place ? recv : send, rc, (size_t)count, c->rank, 0);
  if (exclusive)
    MPI_Exscan(in_place ? MPI_IN_PLACE : send, recv, count, t->type, op, c->comm);
  else
    MPI_Scan(in_place ? MPI_IN_PLACE : send, recv, count, t->type, op, c->comm);
  if (!exclusive || c->rank > 0) {
    serial_reduce(want, rc, (size_t)count, exclusive ? c->rank : c->rank + 1, 0);
    CHECK(same_data(recv, want, t, (size_t)count), "%s%s %s count %d on %s",
          exclusive ? "MPI_Exscan" : "MPI_Scan", in_place ? " in place" : "", reduction_cases[rc].name, count,
          c->name);
  }
  free(send);
  free(recv);
  free(want);
}

/* MPI_Reduce_scatter with the v-variants' uneven counts: rank r gets its v_count(r, n) elements. */
static void test_reduce_scatter(const comm_t* c, int rc, int n, int in_place) {
  const test_type* t = &types[reduction_cases[rc].type];
  const size_t p = (size_t)c->size;
  int* counts = malloc(p * sizeof(int));
  size_t r, total = 0, first = 0;
  unsigned char *send, *recv, *want;
  for (r = 0; r < p; ++r) {
    counts[r] = v_count((int)r, n);
    if ((int)r < c->rank) first += (size_t)counts[r];
    total += (size_t)counts[r];
  }
  send = alloc_bytes(total * t->extent);
  recv = alloc_bytes(total * t->extent);
  want = alloc_bytes(total * t->extent);
  fill_input(in_place ? recv : send, rc, total, c->rank, 0);
  MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : send, recv, counts, t->type, op_of(&reduction_cases[rc]),
                     c->comm);
  serial_reduce(want, rc, (size_t)counts[c->rank], c->size, first);
  CHECK(same_data(recv, want, t, (size_t)counts[c->rank]), "MPI_Reduce_scatter%s %s count %d on %s",
        in_place ? " in place" : "", reduction_cases[rc].name, n, c->name);
  free(counts), free(send), free(recv), free(want);
}

/* ---- the matrix ---- */

static void run_matrix(const comm_t* c, int large) {
  const int counts[] = {0, 1, 7};
  const int roots[] = {0, c->size / 2, c->size - 1};
  int ti, ri, ci, k, in_place;
  for (ci = 0; ci < 3; ++ci) {
    const int n = counts[ci];
    for (ti = 0; ti < T_COUNT; ++ti) {
      const test_type* t = &types[ti];
      for (k = 0; k < 3; ++k) {
        test_bcast(c, t, n, roots[k]);
        for (in_place = 0; in_place < 2; ++in_place) {
          test_scatter(c, t, n, roots[k], in_place);
          test_gather(c, t, n, roots[k], in_place);
        }
      }
      for (in_place = 0; in_place < 2; ++in_place) {
        test_allgather(c, t, n, in_place);
        test_alltoall(c, t, n, in_place);
      }
    }
    for (ri = 0; ri < R_COUNT; ++ri) {
      for (k = 0; k < 3; ++k)
        for (in_place = 0; in_place < 2; ++in_place) test_reduce(c, ri, n, roots[k], in_place);
      for (in_place = 0; in_place < 2; ++in_place) {
        test_allreduce(c, ri, n, in_place);
        test_reduce_scatter_block(c, ri, n, in_place);
      }
    }
  }
  /* The newer functions on fewer cases (the CI runs this matrix 14 x 7 times): a contiguous, a
   * strided and a padded type, and four reductions (a predefined op, a user op on a strided type,
   * MINLOC, the non-commutative matrix product), each MPI_IN_PLACE form at counts 1 and 7. */
  for (ci = 0; ci < 3; ++ci) {
    const int n = counts[ci], v_types[] = {T_INT, T_VECTOR, T_DOUBLE_INT};
    const int v_reductions[] = {R_INT_SUM, R_VECTOR_USER, R_MINLOC, R_MATRIX};
    for (k = 0; k < 3; ++k) {
      const test_type* t = &types[v_types[k]];
      in_place = (ci + k) % 2;
      test_allgatherv(c, t, n, in_place);
      test_alltoallv(c, t, n, in_place);
      /* the rooted ones: root 0 in place, the last rank not */
      test_gatherv(c, t, n, in_place ? roots[0] : roots[2], in_place);
      test_scatterv(c, t, n, in_place ? roots[0] : roots[2], in_place);
    }
    for (k = 0; k < 4; ++k) {
      in_place = (ci + k) % 2;
      test_reduce_scatter(c, v_reductions[k], n, in_place);
      test_scan(c, v_reductions[k], n, in_place, 0);
      test_scan(c, v_reductions[k], n, in_place, 1);
    }
  }
  if (large) {
    const int n = 100003;
    test_bcast(c, &types[T_INT], n, c->size - 1);
    test_scatter(c, &types[T_INT], n, c->size / 2, 0);
    test_gather(c, &types[T_INT], n, 0, 1);
    test_allgather(c, &types[T_INT], n, 0);
    test_alltoall(c, &types[T_DOUBLE], n / 8, 0);
    test_reduce(c, R_DOUBLE_SUM, n, c->size / 2, 0);
    test_allreduce(c, R_INT_SUM, n, 1);
    test_allreduce(c, R_DOUBLE_SUM, n, 0);
    test_allreduce(c, R_MATRIX, n / 4, 0);
    test_reduce_scatter_block(c, R_INT_SUM, n, 0);
    test_gatherv(c, &types[T_INT], n, c->size / 2, 0);
    test_scatterv(c, &types[T_INT], n, 0, 0);
    test_allgatherv(c, &types[T_DOUBLE], n, 1);
    test_alltoallv(c, &types[T_INT], n / 8, 0);
    test_reduce_scatter(c, R_DOUBLE_SUM, n, 0);
    test_scan(c, R_INT_SUM, n, 0, 0);
    test_scan(c, R_MATRIX, n / 4, 1, 1);
  }
  CHECK(MPI_Barrier(c->comm) == MPI_SUCCESS, "MPI_Barrier on %s", c->name);
}

/* ---- bad arguments ---- */

static void expect_class(int code, int want, const char* what) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(code, &cls);
  CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

static void run_errors(const comm_t* c) {
  int x[4] = {1, 2, 3, 4}, y[4];
  int sum = 0, one = 1;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  expect_class(MPI_Bcast(x, 4, MPI_INT, c->size, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast root = p");
  expect_class(MPI_Reduce(x, y, 4, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD), MPI_ERR_ROOT,
               "MPI_Reduce root = -1");
  expect_class(MPI_Allreduce(x, y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Allreduce count -1");
  expect_class(MPI_Allreduce(x, y, 4, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE,
               "MPI_Allreduce MPI_DATATYPE_NULL");
  expect_class(MPI_Allreduce(x, y, 4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Allreduce MPI_OP_NULL");
  expect_class(MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM,
               "MPI_Allreduce MPI_COMM_NULL");
  expect_class(MPI_Bcast(MPI_IN_PLACE, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Bcast MPI_IN_PLACE");
  expect_class(MPI_Allgather(x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Allgather recvbuf MPI_IN_PLACE");
  expect_class(MPI_Allreduce(NULL, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Allreduce NULL sendbuf");
  expect_class(MPI_Alltoall(x, -2, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Alltoall sendcount -2");
  { /* the newer functions: counts and displacements every rank checks alike */
    int* bad = malloc((size_t)c->size * sizeof(int));
    int* zero = calloc((size_t)c->size, sizeof(int));
    int* ones = malloc((size_t)c->size * sizeof(int));
    int i;
    for (i = 0; i < c->size; ++i) bad[i] = i == c->size - 1 ? -1 : 1;
    expect_class(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier MPI_COMM_NULL");
    expect_class(MPI_Scan(x, y, 4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Scan MPI_OP_NULL");
    expect_class(MPI_Exscan(x, y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "MPI_Exscan count -1");
    expect_class(MPI_Allgatherv(x, 1, MPI_INT, y, bad, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "MPI_Allgatherv recvcounts[p-1] = -1");
    for (i = 0; i < c->size; ++i) ones[i] = 1;
    expect_class(MPI_Alltoallv(x, ones, bad, MPI_INT, y, ones, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG,
                 "MPI_Alltoallv sdispls[p-1] = -1");
    expect_class(MPI_Reduce_scatter(x, y, zero, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "MPI_Reduce_scatter MPI_DATATYPE_NULL");
    free(bad), free(zero), free(ones);
  }
  /* The communicator still works. */
  CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS && sum == c->size,
        "MPI_Allreduce after the errors: %d, expected %d", sum, c->size);
}

/* ---- the report's known calls ---- */

static void run_report(const comm_t* c) {
  int x[5] = {1, 2, 3, 4, 5}, y[5];
  int i;
  for (i = 0; i < 3; ++i) MPI_Allreduce(x, y, 5, MPI_INT, MPI_SUM, c->comm); /* served */
  for (i = 0; i < 2; ++i) MPI_Bcast(x, 5, MPI_INT, 0, c->comm);              /* served */
  MPI_Reduce(x, y, 5, MPI_INT, MPI_SUM, 0, c->comm); /* COLLECTIVES_ALGORITHMS=reduce=vendor */
  {                                                  /* once each, served by the algorithm check.sh selects */
    int* ones = malloc((size_t)c->size * sizeof(int));
    int* at = malloc((size_t)c->size * sizeof(int));
    int* all = malloc((size_t)c->size * sizeof(int));
    int* out = malloc((size_t)c->size * sizeof(int));
    for (i = 0; i < c->size; ++i) ones[i] = 1, at[i] = i, all[i] = i;
    MPI_Barrier(c->comm);
    MPI_Scan(x, y, 5, MPI_INT, MPI_SUM, c->comm);
    MPI_Exscan(x, y, 5, MPI_INT, MPI_SUM, c->comm);
    MPI_Gatherv(x, 1, MPI_INT, out, ones, at, MPI_INT, 0, c->comm);
    MPI_Scatterv(all, ones, at, MPI_INT, y, 1, MPI_INT, 0, c->comm);
    MPI_Allgatherv(x, 1, MPI_INT, out, ones, at, MPI_INT, c->comm);
    MPI_Alltoallv(all, ones, at, MPI_INT, out, ones, at, MPI_INT, c->comm);
    MPI_Reduce_scatter(all, y, ones, MPI_INT, MPI_SUM, c->comm);
    free(ones), free(at), free(all), free(out);
  }
  /* MPI defines no MPI_SUM on MPI_C_BOOL: forwarded (op), so the MPI library's verdict stands. */
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
  expect_class(MPI_Allreduce(x, y, 2, MPI_C_BOOL, MPI_SUM, c->comm), MPI_ERR_OP, "MPI_SUM on MPI_C_BOOL");
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_ARE_FATAL);
  if (c->size > 1) { /* an intercommunicator between the two halves: forwarded */
    MPI_Comm half, inter;
    const int color = c->rank % 2;
    MPI_Comm_split(c->comm, color, c->rank, &half);
    MPI_Intercomm_create(half, 0, c->comm, color == 0 ? 1 : 0, 7, &inter);
    MPI_Allreduce(x, y, 5, MPI_INT, MPI_SUM, inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
}

/* ---- calls whose sizes check.sh reads from the report ---- */

/* MPI_Allreduce (MPI_SUM) of counts[k] ints for each k in turn, every element checked. */
static void allreduce_each(const comm_t* c, const int* counts, int n_counts, const char* what) {
  int most = 0, i, k;
  int *x, *y;
  for (k = 0; k < n_counts; ++k)
    if (counts[k] > most) most = counts[k];
  x = malloc((size_t)most * sizeof(int));
  y = malloc((size_t)most * sizeof(int));
  for (k = 0; k < n_counts; ++k) {
    const int n = counts[k];
    int bad = 0;
    for (i = 0; i < n; ++i) x[i] = c->rank * 7 + i + k, y[i] = -1;
    MPI_Allreduce(x, y, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n; ++i) bad += y[i] != 7 * c->size * (c->size - 1) / 2 + c->size * (i + k);
    CHECK(bad == 0, "%s: MPI_Allreduce of %d ints: %d wrong elements", what, n, bad);
  }
  free(x), free(y);
}

/* The report's size ranges: one MPI_Allreduce in each, two in [1 KiB, 64 KiB). */
static void run_sizes(const comm_t* c) {
  static const int counts[] = {25, 1024, 1024, 25600, 524288}; /* 100 B, 4 KiB twice, 100 KiB, 2 MiB */
  allreduce_each(c, counts, (int)(sizeof counts / sizeof counts[0]), "sizes");
}

/* `fastest`: the path of each call is the table's. */
static void run_fastest(const comm_t* c) {
  /* check.sh's table at this np: vendor below 64 bytes and from 4096, the library between. So 2
   * calls of 5 ints (20 B) and 1 of 2000 (8000 B) go to vendor, 3 of 100 ints (400 B) to the library. */
  static const int counts[] = {5, 100, 2000, 100, 5, 100};
  int x[5], i;
  allreduce_each(c, counts, (int)(sizeof counts / sizeof counts[0]), "fastest");
  /* The table says nothing of broadcast: automatic's choice serves it. */
  for (i = 0; i < 5; ++i) x[i] = c->rank == 0 ? 40 + i : 0;
  MPI_Bcast(x, 5, MPI_INT, 0, c->comm);
  for (i = 0; i < 5; ++i) CHECK(x[i] == 40 + i, "fastest: MPI_Bcast element %d: %d", i, x[i]);
}

/* ---- handles freed and reused: nothing learnt of the old op or type may stick to the new ---- */

/* Commutative: element-wise int sum. */
static void int_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  const int* a = in;
  int* b = inout;
  int i;
  (void)type;
  for (i = 0; i < *len; ++i) b[i] += a[i];
}

/* Not commutative: a ∘ b = a (inout = in, the lower ranks' side), so the fold over the ranks is rank
 * 0's input; an algorithm that combined out of rank order would return another rank's. */
static void int_first(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  memcpy(inout, in, (size_t)*len * sizeof(int));
}

static void run_reuse(const comm_t* c) {
  enum { n = 6, blocks = 4 };
  MPI_Op previous_op = MPI_OP_NULL;
  MPI_Datatype previous_type = MPI_DATATYPE_NULL;
  MPI_Comm previous_comm = MPI_COMM_NULL;
  int round, i, op_reused = 0, type_reused = 0, comm_reused = 0;
  for (round = 0; round < 6; ++round) {
    const int commutative = round % 2 == 0, strided = round % 2 == 1;
    MPI_Op op;
    MPI_Datatype t;
    int x[n], y[n], buf[3 * blocks];
    /* A user op (check.sh selects ring, which does not keep rank order: a non-commutative op must
     * get automatic's order-keeping choice instead). */
    MPI_Op_create(commutative ? &int_sum : &int_first, commutative, &op);
    op_reused += op == previous_op;
    for (i = 0; i < n; ++i) x[i] = c->rank * 10 + i + round, y[i] = -1;
    MPI_Allreduce(x, y, n, MPI_INT, op, c->comm);
    for (i = 0; i < n; ++i) {
      const int want = commutative ? 10 * c->size * (c->size - 1) / 2 + c->size * (i + round) : i + round;
      CHECK(y[i] == want,
            "reuse round %d: MPI_Allreduce with a %scommutative user op: element %d is %d, expected %d",
            round, commutative ? "" : "non-", i, y[i], want);
    }
    previous_op = op;
    MPI_Op_free(&op);
    /* A derived datatype: 3 contiguous ints, or ints 0 and 2 of 3 (the middle one a hole that must
     * keep its value on every rank but the root). */
    if (strided)
      MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    else
      MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_commit(&t);
    type_reused += t == previous_type;
    for (i = 0; i < 3 * blocks; ++i) buf[i] = c->rank == 0 ? 1000 * round + i : -1;
    MPI_Bcast(buf, blocks, t, 0, c->comm);
    for (i = 0; i < 3 * blocks; ++i) {
      const int want = c->rank != 0 && strided && i % 3 == 1 ? -1 : 1000 * round + i;
      CHECK(buf[i] == want, "reuse round %d: MPI_Bcast of a %s type: int %d is %d, expected %d", round,
            strided ? "strided" : "contiguous", i, buf[i], want);
    }
    previous_type = t;
    MPI_Type_free(&t);
  }
  /* A communicator the drop-in served on (and remembers the last call's shape for), freed and
   * replaced by an intercommunicator, perhaps under the same handle: the same call on it must go
   * to the MPI library (each group gets the other group's sum), not to the library's algorithms. */
  for (round = 0; round < 2 && c->size > 1; ++round) {
    MPI_Comm dup, half, inter;
    const int color = c->rank % 2;
    int x[4], y[4], r;
    MPI_Comm_dup(c->comm, &dup);
    for (i = 0; i < 4; ++i) x[i] = c->rank + i;
    for (r = 0; r < 2; ++r) { /* twice: the second call repeats the first one's shape */
      for (i = 0; i < 4; ++i) y[i] = -1;
      MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, dup);
      for (i = 0; i < 4; ++i)
        CHECK(y[i] == c->size * (c->size - 1) / 2 + c->size * i, "reuse: MPI_Allreduce on a duplicate: %d",
              y[i]);
    }
    MPI_Comm_split(c->comm, color, c->rank, &half);
    previous_comm = dup;
    MPI_Comm_free(&dup);
    MPI_Intercomm_create(half, 0, c->comm, color == 0 ? 1 : 0, 7, &inter);
    comm_reused += inter == previous_comm;
    for (i = 0; i < 4; ++i) y[i] = -1;
    MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, inter);
    for (i = 0; i < 4; ++i) {
      int want = 0;
      for (r = 0; r < c->size; ++r)
        if (r % 2 != color) want += r + i;
      CHECK(y[i] == want, "reuse: MPI_Allreduce on an intercommunicator: element %d is %d, expected %d", i,
            y[i], want);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  if (c->rank == 0)
    printf(
        "dropin_test reuse: MPI handed out a freed handle again: op %d times, datatype %d times, "
        "communicator %d times\n",
        op_reused, type_reused, comm_reused);
}

/* ---- the same call again and again, as applications issue them ---- */

/* Each collective three times with one shape (the drop-in then serves it as it did last time, with no
 * checks) and new buffers and values each time; then a null buffer in a shape served before, which
 * must still be refused. */
static void run_repeat(const comm_t* c) {
  enum { n = 5 };
  const int p = c->size, me = c->rank, root = p - 1;
  int* sets[2][2];
  int round, i, r, k;
  for (i = 0; i < 2; ++i)
    for (k = 0; k < 2; ++k) sets[i][k] = malloc((size_t)(p * n) * sizeof(int));
  for (round = 0; round < 3; ++round) {
    int* in = sets[round % 2][0]; /* new buffers every other round */
    int* out = sets[round % 2][1];
    const int t = 100 * round;
#define FILL(buf, len, expr) \
  for (i = 0; i < (len); ++i) (buf)[i] = (expr)
    FILL(out, n, me == root ? t + i : -1);
    MPI_Bcast(out, n, MPI_INT, root, c->comm);
    for (i = 0; i < n; ++i) CHECK(out[i] == t + i, "repeat %d: MPI_Bcast element %d: %d", round, i, out[i]);
    FILL(in, n, me * 10 + i + t);
    FILL(out, p * n, -1);
    MPI_Gather(in, n, MPI_INT, out, n, MPI_INT, root, c->comm);
    if (me == root)
      for (i = 0; i < p * n; ++i)
        CHECK(out[i] == (i / n) * 10 + i % n + t, "repeat %d: MPI_Gather element %d: %d", round, i, out[i]);
    MPI_Allgather(in, n, MPI_INT, out, n, MPI_INT, c->comm);
    for (i = 0; i < p * n; ++i)
      CHECK(out[i] == (i / n) * 10 + i % n + t, "repeat %d: MPI_Allgather element %d: %d", round, i, out[i]);
    FILL(in, p * n, me == root ? (i / n) * 10 + i % n + t : -1);
    FILL(out, n, -1);
    MPI_Scatter(in, n, MPI_INT, out, n, MPI_INT, root, c->comm);
    for (i = 0; i < n; ++i)
      CHECK(out[i] == me * 10 + i + t, "repeat %d: MPI_Scatter element %d: %d", round, i, out[i]);
    FILL(in, p * n, me * 1000 + i + t);
    MPI_Alltoall(in, n, MPI_INT, out, n, MPI_INT, c->comm);
    for (i = 0; i < p * n; ++i)
      CHECK(out[i] == (i / n) * 1000 + me * n + i % n + t, "repeat %d: MPI_Alltoall element %d: %d", round, i,
            out[i]);
    MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n; ++i)
      CHECK(out[i] == 1000 * p * (p - 1) / 2 + p * (me * n + i + t),
            "repeat %d: MPI_Reduce_scatter_block %d: %d", round, i, out[i]);
    /* The reductions of x_k[i] = 10k + i + t over ranks k. */
    FILL(in, n, me * 10 + i + t);
    FILL(out, n, -1);
    MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, root, c->comm);
    if (me == root)
      for (i = 0; i < n; ++i)
        CHECK(out[i] == 10 * p * (p - 1) / 2 + p * (i + t), "repeat %d: MPI_Reduce element %d: %d", round, i,
              out[i]);
    MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n; ++i)
      CHECK(out[i] == 10 * p * (p - 1) / 2 + p * (i + t), "repeat %d: MPI_Allreduce element %d: %d", round, i,
            out[i]);
    MPI_Allreduce(MPI_IN_PLACE, in, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n; ++i)
      CHECK(in[i] == 10 * p * (p - 1) / 2 + p * (i + t), "repeat %d: MPI_Allreduce in place element %d: %d",
            round, i, in[i]);
    FILL(in, n, me * 10 + i + t);
    MPI_Scan(in, out, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n; ++i)
      CHECK(out[i] == 10 * me * (me + 1) / 2 + (me + 1) * (i + t), "repeat %d: MPI_Scan element %d: %d",
            round, i, out[i]);
    FILL(out, n, -1);
    MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, c->comm);
    for (i = 0; i < n && me > 0; ++i)
      CHECK(out[i] == 10 * me * (me - 1) / 2 + me * (i + t), "repeat %d: MPI_Exscan element %d: %d", round, i,
            out[i]);
    MPI_Barrier(c->comm);
#undef FILL
  }
  /* Served twice above with these shapes: a null buffer is still refused, on every rank alike. */
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
  expect_class(MPI_Allreduce(NULL, sets[0][1], n, MPI_INT, MPI_SUM, c->comm), MPI_ERR_BUFFER,
               "repeat: MPI_Allreduce from NULL");
  expect_class(MPI_Bcast(NULL, n, MPI_INT, root, c->comm), MPI_ERR_BUFFER, "repeat: MPI_Bcast into NULL");
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_ARE_FATAL);
  for (r = 0; r < 2; ++r) /* the communicator still works, and the shape is served again */
    MPI_Allreduce(sets[r][0], sets[r][1], n, MPI_INT, MPI_SUM, c->comm);
  for (i = 0; i < 2; ++i)
    for (k = 0; k < 2; ++k) free(sets[i][k]);
}

/* ---- threads: each on its own communicator, at once ---- */

typedef struct {
  MPI_Comm comm;
  int id, size, bad;
} thread_arg;

static void* thread_body(void* p) {
  thread_arg* a = p;
  int i;
  for (i = 0; i < 200; ++i) {
    int x[3] = {a->id, i, 1}, y[3] = {0, 0, 0};
    MPI_Allreduce(x, y, 3, MPI_INT, MPI_SUM, a->comm);
    if (y[0] != a->id * a->size || y[1] != i * a->size || y[2] != a->size) ++a->bad;
    MPI_Bcast(x, 3, MPI_INT, 0, a->comm);
  }
  return NULL;
}

static void run_threads(const comm_t* c) {
  pthread_t th[2];
  thread_arg args[2];
  int i;
  for (i = 0; i < 2; ++i) {
    args[i].id = i + 1;
    args[i].size = c->size;
    args[i].bad = 0;
    MPI_Comm_dup(c->comm, &args[i].comm);
  }
  for (i = 0; i < 2; ++i) pthread_create(&th[i], NULL, thread_body, &args[i]);
  for (i = 0; i < 2; ++i) pthread_join(th[i], NULL);
  for (i = 0; i < 2; ++i) {
    CHECK(args[i].bad == 0, "thread %d: %d wrong all-reduce results", i, args[i].bad);
    MPI_Comm_free(&args[i].comm);
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "matrix";
  comm_t world, half;
  int total = 0, provided = 0;
  if (strcmp(mode, "threads") == 0) {
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  world.comm = MPI_COMM_WORLD;
  world.name = "world";
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  make_types();
  make_reductions();

  if (strcmp(mode, "matrix") == 0) {
    /* Halves, ranks reversed within each. */
    MPI_Comm_split(MPI_COMM_WORLD, world.rank % 2, -world.rank, &half.comm);
    half.name = "split halves (reversed)";
    MPI_Comm_rank(half.comm, &half.rank);
    MPI_Comm_size(half.comm, &half.size);
    run_matrix(&world, 1);
    run_matrix(&half, 0);
    MPI_Comm_free(&half.comm);
  } else if (strcmp(mode, "errors") == 0) {
    run_errors(&world);
  } else if (strcmp(mode, "fatal") == 0) {
    int x = 0;
    MPI_Bcast(&x, 1, MPI_INT, world.size + 3, MPI_COMM_WORLD); /* must not return */
    ++failures;
    fprintf(stderr, "dropin_test: FAILED: MPI_Bcast with a bad root returned under MPI_ERRORS_ARE_FATAL\n");
  } else if (strcmp(mode, "report") == 0) {
    run_report(&world);
  } else if (strcmp(mode, "sizes") == 0) {
    run_sizes(&world);
  } else if (strcmp(mode, "fastest") == 0) {
    run_fastest(&world);
  } else if (strcmp(mode, "reuse") == 0) {
    run_reuse(&world);
  } else if (strcmp(mode, "repeat") == 0) {
    run_repeat(&world);
  } else if (strcmp(mode, "threads") == 0) {
    if (provided < MPI_THREAD_MULTIPLE) {
      if (world.rank == 0) printf("dropin_test threads: skipped (MPI_THREAD_MULTIPLE not provided)\n");
    } else {
      run_threads(&world);
    }
  } else {
    fprintf(stderr, "dropin_test: unknown mode '%s'\n", mode);
    ++failures;
  }

  /* Every rank's failures count. The errors mode left MPI_ERRORS_RETURN on world: fine here. */
  PMPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world.rank == 0)
    printf("dropin_test %s: %s (%d failed checks over %d ranks)\n", mode, total == 0 ? "ok" : "FAILED", total,
           world.size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
