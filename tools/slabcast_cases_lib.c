/* The native case runner's logic (docs/case-runner.md): read a case file, run or check every
 * case, print the results document or the check report. Used by tools/slabcast-cases.c (the
 * command) and by the fuzzer tools/fuzz/fuzz_cases.c, so both go through the same code.
 *
 * JSON is read with cJSON. The wasm runner (web/bin/slabcast-cases.mjs) prints
 * byte-identical output; keep the two in step.
 */
#include "slabcast_cases_lib.h"

#include "slabcast.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES 67108864L
#define MAX_CASES 1000000
#define MAX_QUOTED 64

/* ------------------------------------------------------------ formatting */

/* A float32 as text: -0 as 0; non-finite as the strings "inf", "-inf", "nan". */
static void fmt_num(char *buf, size_t n, float v)
{
    if (isnan(v)) { snprintf(buf, n, "\"nan\""); return; }
    if (isinf(v)) { snprintf(buf, n, v > 0 ? "\"inf\"" : "\"-inf\""); return; }
    if (v == 0.0f) v = 0.0f;
    /* The shortest text among %.1g .. %.9g that reads back as v (the first on a tie), so 100
     * prints as "100", not "1e+02". %.9g always reads back. */
    char best[64] = "", cand[64];
    for (int p = 1; p <= 9; ++p) {
        snprintf(cand, sizeof cand, "%.*g", p, (double)v);
        if (strtof(cand, NULL) == v && (best[0] == 0 || strlen(cand) < strlen(best))) strcpy(best, cand);
    }
    snprintf(buf, n, "%s", best);
}

static void fmt_vec(char *buf, size_t n, sc_vec3 v)
{
    char a[32], b[32], c[32];
    fmt_num(a, sizeof a, v.x);
    fmt_num(b, sizeof b, v.y);
    fmt_num(c, sizeof c, v.z);
    snprintf(buf, n, "[%s, %s, %s]", a, b, c);
}

/* A growable string. After a failed allocation it keeps what it has and sets oom. */
typedef struct sbuf { char *p; size_t len, cap; int oom; } sbuf;

static void sb_putn(sbuf *s, const char *p, size_t n)
{
    if (s->oom) return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + n + 1) cap *= 2;
        char *q = realloc(s->p, cap);
        if (!q) { s->oom = 1; return; }
        s->p = q;
        s->cap = cap;
    }
    memcpy(s->p + s->len, p, n);
    s->len += n;
    s->p[s->len] = 0;
}

static void sb_puts(sbuf *s, const char *p) { sb_putn(s, p, strlen(p)); }

static void sb_printf(sbuf *s, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) { sb_putn(s, tmp, (size_t)n); return; }
    char *big = malloc((size_t)n + 1);
    if (!big) { s->oom = 1; return; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_putn(s, big, (size_t)n);
    free(big);
}

/* A JSON string literal, escaped as JavaScript's JSON.stringify does. */
static void sb_json_string(sbuf *s, const char *str)
{
    sb_putn(s, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)str; *p; ++p) {
        switch (*p) {
        case '"': sb_puts(s, "\\\""); break;
        case '\\': sb_puts(s, "\\\\"); break;
        case '\b': sb_puts(s, "\\b"); break;
        case '\f': sb_puts(s, "\\f"); break;
        case '\n': sb_puts(s, "\\n"); break;
        case '\r': sb_puts(s, "\\r"); break;
        case '\t': sb_puts(s, "\\t"); break;
        default:
            if (*p < 0x20) sb_printf(s, "\\u%04x", *p);
            else sb_putn(s, (const char *)p, 1);
        }
    }
    sb_putn(s, "\"", 1);
}

/* At most MAX_QUOTED bytes of a UTF-8 string, never splitting a character. */
static void truncated(char *out, const char *in)
{
    size_t n = strlen(in);
    if (n > MAX_QUOTED) {
        n = MAX_QUOTED;
        while (n > 0 && (((unsigned char)in[n]) & 0xC0) == 0x80) --n;
    }
    memcpy(out, in, n);
    out[n] = 0;
}

/* ------------------------------------------------------------- reading */

/* The last member named key (JSON.parse keeps the last of duplicate keys). */
static const cJSON *member(const cJSON *obj, const char *key)
{
    const cJSON *found = NULL;
    if (!cJSON_IsObject(obj)) return NULL;
    for (const cJSON *c = obj->child; c; c = c->next)
        if (c->string && strcmp(c->string, key) == 0) found = c;
    return found;
}

static int read_number(const cJSON *item, float *out)
{
    if (cJSON_IsNumber(item)) { *out = (float)item->valuedouble; return 1; }
    if (cJSON_IsString(item)) {
        const char *s = item->valuestring;
        if (strcmp(s, "inf") == 0) { *out = INFINITY; return 1; }
        if (strcmp(s, "-inf") == 0) { *out = -INFINITY; return 1; }
        if (strcmp(s, "nan") == 0) { *out = NAN; return 1; }
    }
    return 0;
}

static int read_vec3(const cJSON *item, sc_vec3 *out)
{
    float v[3];
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3) return 0;
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, ++i)
        if (!read_number(c, &v[i])) return 0;
    *out = (sc_vec3){v[0], v[1], v[2]};
    return 1;
}

typedef enum { Q_NONE, Q_RAYCAST, Q_LINETEST, Q_CLOSEST, Q_CONTAINS } query_kind;

typedef struct case_input {
    query_kind q;
    sc_ray ray;
    sc_segment seg;
    sc_vec3 point;
    sc_shape shape;
    float scale; /* largest finite input magnitude, at least 1 */
} case_input;

static void scale_num(case_input *in, float v)
{
    if (isfinite(v) && fabsf(v) > in->scale) in->scale = fabsf(v);
}
static void scale_vec(case_input *in, sc_vec3 v)
{
    scale_num(in, v.x);
    scale_num(in, v.y);
    scale_num(in, v.z);
}

#define FAIL_MSG(...) do { snprintf(err, errn, __VA_ARGS__); return 0; } while (0)

static int need_object(const cJSON *item, const char *path, char *err, size_t errn)
{
    if (!cJSON_IsObject(item)) FAIL_MSG("\"%s\" must be an object", path);
    return 1;
}

static int need_vec(const cJSON *obj, const char *key, const char *path, sc_vec3 *out, char *err, size_t errn)
{
    if (!read_vec3(member(obj, key), out)) FAIL_MSG("\"%s\" must be an array of 3 numbers", path);
    return 1;
}

static int need_num(const cJSON *obj, const char *key, const char *path, float *out, char *err, size_t errn)
{
    if (!read_number(member(obj, key), out)) FAIL_MSG("\"%s\" must be a number", path);
    return 1;
}

static int read_shape(const cJSON *c, case_input *in, char *err, size_t errn)
{
    const cJSON *sh = member(c, "shape");
    if (!need_object(sh, "shape", err, errn)) return 0;
    const cJSON *type = member(sh, "type");
    if (!cJSON_IsString(type)) FAIL_MSG("\"shape.type\" must be a string");
    const char *t = type->valuestring;
    sc_shape *s = &in->shape;
    memset(s, 0, sizeof *s);
    if (strcmp(t, "aabb") == 0) {
        s->type = SC_SHAPE_AABB;
        if (!need_vec(sh, "min", "shape.min", &s->u.aabb.min, err, errn)) return 0;
        if (!need_vec(sh, "max", "shape.max", &s->u.aabb.max, err, errn)) return 0;
        scale_vec(in, s->u.aabb.min);
        scale_vec(in, s->u.aabb.max);
    } else if (strcmp(t, "obb") == 0) {
        s->type = SC_SHAPE_OBB;
        if (!need_vec(sh, "center", "shape.center", &s->u.obb.center, err, errn)) return 0;
        const cJSON *axes = member(sh, "axes");
        int ok = cJSON_IsArray(axes) && cJSON_GetArraySize(axes) == 3;
        int i = 0;
        for (const cJSON *a = ok ? axes->child : NULL; a; a = a->next, ++i)
            if (!read_vec3(a, &s->u.obb.axes[i])) ok = 0;
        if (!ok) FAIL_MSG("\"shape.axes\" must be an array of 3 arrays of 3 numbers");
        if (!need_vec(sh, "half", "shape.half", &s->u.obb.half, err, errn)) return 0;
        scale_vec(in, s->u.obb.center);
        for (i = 0; i < 3; ++i) scale_vec(in, s->u.obb.axes[i]);
        scale_vec(in, s->u.obb.half);
    } else if (strcmp(t, "sphere") == 0) {
        s->type = SC_SHAPE_SPHERE;
        if (!need_vec(sh, "center", "shape.center", &s->u.sphere.center, err, errn)) return 0;
        if (!need_num(sh, "radius", "shape.radius", &s->u.sphere.radius, err, errn)) return 0;
        scale_vec(in, s->u.sphere.center);
        scale_num(in, s->u.sphere.radius);
    } else if (strcmp(t, "capsule") == 0) {
        s->type = SC_SHAPE_CAPSULE;
        if (!need_vec(sh, "a", "shape.a", &s->u.capsule.a, err, errn)) return 0;
        if (!need_vec(sh, "b", "shape.b", &s->u.capsule.b, err, errn)) return 0;
        if (!need_num(sh, "radius", "shape.radius", &s->u.capsule.radius, err, errn)) return 0;
        scale_vec(in, s->u.capsule.a);
        scale_vec(in, s->u.capsule.b);
        scale_num(in, s->u.capsule.radius);
    } else if (strcmp(t, "plane") == 0) {
        s->type = SC_SHAPE_PLANE;
        if (!need_vec(sh, "normal", "shape.normal", &s->u.plane.normal, err, errn)) return 0;
        if (!need_num(sh, "d", "shape.d", &s->u.plane.d, err, errn)) return 0;
        scale_vec(in, s->u.plane.normal);
        scale_num(in, s->u.plane.d);
    } else {
        char q[MAX_QUOTED + 1];
        truncated(q, t);
        FAIL_MSG("unknown shape type \"%s\"", q);
    }
    return 1;
}

/* Reads the query's input and shape. Returns 1, or 0 with a message in err. */
static int read_case(const cJSON *c, case_input *in, char *err, size_t errn)
{
    memset(in, 0, sizeof *in);
    in->scale = 1.0f;
    const cJSON *q = member(c, "query");
    if (!cJSON_IsString(q)) FAIL_MSG("\"query\" must be a string");
    const char *qs = q->valuestring;
    if (strcmp(qs, "raycast") == 0) {
        in->q = Q_RAYCAST;
        const cJSON *ray = member(c, "ray");
        if (!need_object(ray, "ray", err, errn)) return 0;
        if (!need_vec(ray, "origin", "ray.origin", &in->ray.origin, err, errn)) return 0;
        if (!need_vec(ray, "dir", "ray.dir", &in->ray.dir, err, errn)) return 0;
        in->ray.tmax = INFINITY;
        if (member(ray, "tmax") && !need_num(ray, "tmax", "ray.tmax", &in->ray.tmax, err, errn)) return 0;
        scale_vec(in, in->ray.origin);
        scale_vec(in, in->ray.dir);
        scale_num(in, in->ray.tmax);
    } else if (strcmp(qs, "linetest") == 0) {
        in->q = Q_LINETEST;
        const cJSON *seg = member(c, "segment");
        if (!need_object(seg, "segment", err, errn)) return 0;
        if (!need_vec(seg, "a", "segment.a", &in->seg.a, err, errn)) return 0;
        if (!need_vec(seg, "b", "segment.b", &in->seg.b, err, errn)) return 0;
        scale_vec(in, in->seg.a);
        scale_vec(in, in->seg.b);
    } else if (strcmp(qs, "closest_point") == 0 || strcmp(qs, "contains") == 0) {
        in->q = strcmp(qs, "contains") == 0 ? Q_CONTAINS : Q_CLOSEST;
        if (!need_vec(c, "point", "point", &in->point, err, errn)) return 0;
        scale_vec(in, in->point);
    } else {
        char t[MAX_QUOTED + 1];
        truncated(t, qs);
        FAIL_MSG("unknown query \"%s\"", t);
    }
    return read_shape(c, in, err, errn);
}

/* ------------------------------------------------------------- running */

typedef struct case_result {
    const char *error; /* a message, or NULL */
    char error_buf[256];
    query_kind q;
    sc_raycast_result ray;
    int flag;          /* linetest hit / contains inside */
    sc_vec3 point;     /* closest_point */
} case_result;

static void run_case(const case_input *in, case_result *out)
{
    int status = SC_OK;
    out->q = in->q;
    switch (in->q) {
    case Q_RAYCAST: out->ray = sc_raycast(&in->ray, &in->shape); status = out->ray.status; break;
    case Q_LINETEST: {
        sc_test_result r = sc_linetest(&in->seg, &in->shape);
        status = r.status;
        out->flag = r.value;
        break;
    }
    case Q_CONTAINS: {
        sc_test_result r = sc_contains(in->point, &in->shape);
        status = r.status;
        out->flag = r.value;
        break;
    }
    case Q_CLOSEST: {
        sc_point_result r = sc_closest_point(in->point, &in->shape);
        status = r.status;
        out->point = r.point;
        break;
    }
    default: break;
    }
    if (status != SC_OK) out->error = sc_status_message((sc_status)status);
}

static void print_result(sbuf *s, const cJSON *id, const case_result *r)
{
    char a[128], b[128], c[128];
    sb_puts(s, "  {\"id\": ");
    if (cJSON_IsString(id)) sb_json_string(s, id->valuestring);
    else sb_puts(s, "null");
    if (r->error) {
        sb_puts(s, ", \"error\": ");
        sb_json_string(s, r->error);
    } else if (r->q == Q_RAYCAST) {
        sb_printf(s, ", \"hit\": %s", r->ray.hit ? "true" : "false");
        if (r->ray.hit) {
            fmt_num(a, sizeof a, r->ray.t);
            fmt_num(b, sizeof b, r->ray.t_enter);
            fmt_num(c, sizeof c, r->ray.t_exit);
            sb_printf(s, ", \"t\": %s, \"t_enter\": %s, \"t_exit\": %s", a, b, c);
            fmt_vec(a, sizeof a, r->ray.point);
            fmt_vec(b, sizeof b, r->ray.normal);
            sb_printf(s, ", \"point\": %s, \"normal\": %s", a, b);
        }
    } else if (r->q == Q_LINETEST) {
        sb_printf(s, ", \"hit\": %s", r->flag ? "true" : "false");
    } else if (r->q == Q_CONTAINS) {
        sb_printf(s, ", \"inside\": %s", r->flag ? "true" : "false");
    } else {
        fmt_vec(a, sizeof a, r->point);
        sb_printf(s, ", \"point\": %s", a);
    }
    sb_puts(s, "}");
}

/* ------------------------------------------------------------- checking */

typedef struct checker { sbuf out; int failed_fields; const cJSON *id; } checker;

static void fail_line(checker *k, const char *field, const char *want, const char *got)
{
    sb_puts(&k->out, "FAIL ");
    if (cJSON_IsString(k->id)) sb_json_string(&k->out, k->id->valuestring);
    else sb_puts(&k->out, "null");
    sb_printf(&k->out, ": %s expected %s, got %s\n", field, want, got);
    k->failed_fields++;
}

/* A JSON string literal in a fresh heap string (the caller frees it); NULL when out of memory
 * (the checker's oom is set then). */
static char *json_string_dup(checker *k, const char *str)
{
    sbuf t = {0};
    sb_json_string(&t, str);
    if (t.oom) {
        free(t.p);
        k->out.oom = 1;
        return NULL;
    }
    return t.p;
}

static void check_bool(checker *k, const cJSON *expect, const char *field, int have, int got)
{
    const cJSON *e = member(expect, field);
    if (!e) return;
    if (!cJSON_IsBool(e)) { fail_line(k, field, "(not a boolean)", have ? (got ? "true" : "false") : "(none)"); return; }
    int want = cJSON_IsTrue(e);
    if (!have) fail_line(k, field, want ? "true" : "false", "(none)");
    else if (want != got) fail_line(k, field, want ? "true" : "false", got ? "true" : "false");
}

static void check_t(checker *k, const cJSON *expect, const char *field, int have, float got,
                    const case_input *in)
{
    const cJSON *e = member(expect, field);
    if (!e) return;
    char w[64], g[64];
    float want;
    if (have) fmt_num(g, sizeof g, got); else snprintf(g, sizeof g, "(none)");
    if (!read_number(e, &want)) { fail_line(k, field, "(not a number)", g); return; }
    fmt_num(w, sizeof w, want);
    if (!have) { fail_line(k, field, w, g); return; }
    sc_vec3 d = in->ray.dir;
    double len = sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
    double tol = 1e-4 * (double)in->scale;
    double err = fabs((double)got - (double)want) * len;
    if (!(err <= tol) && !(got == want)) fail_line(k, field, w, g);
}

static void check_vec(checker *k, const cJSON *expect, const char *field, int have, sc_vec3 got, double tol)
{
    const cJSON *e = member(expect, field);
    if (!e) return;
    char w[128], g[128];
    sc_vec3 want;
    if (have) fmt_vec(g, sizeof g, got); else snprintf(g, sizeof g, "(none)");
    if (!read_vec3(e, &want)) { fail_line(k, field, "(not an array of 3 numbers)", g); return; }
    fmt_vec(w, sizeof w, want);
    if (!have) { fail_line(k, field, w, g); return; }
    float gv[3] = {got.x, got.y, got.z}, wv[3] = {want.x, want.y, want.z};
    for (int i = 0; i < 3; ++i) {
        if (!(fabs((double)gv[i] - (double)wv[i]) <= tol) && !(gv[i] == wv[i])) {
            fail_line(k, field, w, g);
            return;
        }
    }
}

/* Returns 1 when the case passes. */
static int check_case(checker *k, const cJSON *expect, const case_input *in, const case_result *r)
{
    int before = k->failed_fields;
    if (!cJSON_IsObject(expect)) {
        fail_line(k, "expect", "(an object)", "(not an object)");
        return 0;
    }
    const cJSON *ee = member(expect, "error");
    char *g = r->error ? json_string_dup(k, r->error) : NULL;
    if (ee) {
        char *w = cJSON_IsString(ee) ? json_string_dup(k, ee->valuestring) : NULL;
        int ok = r->error && (cJSON_IsTrue(ee) || (cJSON_IsString(ee) && strstr(r->error, ee->valuestring)));
        if (!ok) fail_line(k, "error", w ? w : cJSON_IsTrue(ee) ? "true" : "(true or a string)", g ? g : "none");
        free(w);
        free(g);
        return k->failed_fields == before;
    }
    if (r->error) {
        fail_line(k, "error", "none", g ? g : "(out of memory)");
        free(g);
        return 0;
    }
    int ray = r->q == Q_RAYCAST, hit = ray && r->ray.hit;
    check_bool(k, expect, "hit", ray || r->q == Q_LINETEST, ray ? r->ray.hit : r->flag);
    check_bool(k, expect, "inside", r->q == Q_CONTAINS, r->flag);
    check_t(k, expect, "t", hit, r->ray.t, in);
    check_t(k, expect, "t_enter", hit, r->ray.t_enter, in);
    check_t(k, expect, "t_exit", hit, r->ray.t_exit, in);
    if (r->q == Q_CLOSEST) check_vec(k, expect, "point", 1, r->point, 1e-4 * (double)in->scale);
    else check_vec(k, expect, "point", hit, r->ray.point, 1e-4 * (double)in->scale);
    check_vec(k, expect, "normal", hit, r->ray.normal, 1e-4);
    return k->failed_fields == before;
}

/* ------------------------------------------------------------ entry points */

/* fputs / fprintf that discard when the stream is NULL. */
static void out_puts(FILE *f, const char *s)
{
    if (f) fputs(s, f);
}

static void out_printf(FILE *f, const char *fmt, ...)
{
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

int slabcast_cases_run_text(slabcast_cases_mode mode, const char *name, const char *text, size_t len,
                            FILE *out, FILE *err)
{
    int check = mode == SLABCAST_CASES_CHECK;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!doc) {
        out_printf(err, "slabcast-cases: %s is not valid JSON\n", name);
        return SLABCAST_CASES_EXIT_REFUSED;
    }
    const cJSON *format = member(doc, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, "slabcast-cases/1") != 0) {
        out_printf(err, "slabcast-cases: %s: \"format\" must be \"slabcast-cases/1\"\n", name);
        cJSON_Delete(doc);
        return SLABCAST_CASES_EXIT_REFUSED;
    }
    const cJSON *cases = member(doc, "cases");
    if (!cJSON_IsArray(cases)) {
        out_printf(err, "slabcast-cases: %s: \"cases\" must be an array\n", name);
        cJSON_Delete(doc);
        return SLABCAST_CASES_EXIT_REFUSED;
    }
    int ncases = cJSON_GetArraySize(cases);
    if (ncases > MAX_CASES) {
        out_printf(err, "slabcast-cases: %s: too many cases (%d; the limit is %d)\n", name, ncases, MAX_CASES);
        cJSON_Delete(doc);
        return SLABCAST_CASES_EXIT_REFUSED;
    }

    /* Ids seen so far, for duplicates: a sorted copy would be faster; n is capped and this is
     * a test tool, so a simple open-addressing set over the strings is enough. */
    size_t cap = 16;
    while (cap < (size_t)ncases * 2 + 16) cap *= 2;
    const char **seen = calloc(cap, sizeof *seen);
    if (!seen) {
        out_puts(err, "slabcast-cases: out of memory\n");
        cJSON_Delete(doc);
        return SLABCAST_CASES_EXIT_REFUSED;
    }

    sbuf out_buf = {0};
    checker k = {{0}, 0, NULL};
    int passed = 0, failed = 0, skipped = 0, first = 1;
    sb_puts(&out_buf, "{\"format\": \"slabcast-results/1\", \"results\": [\n");
    for (const cJSON *c = cases->child; c; c = c->next) {
        case_result r;
        case_input in;
        memset(&r, 0, sizeof r);
        memset(&in, 0, sizeof in);
        in.scale = 1.0f;
        const cJSON *id = member(c, "id");
        if (!cJSON_IsObject(c)) {
            r.error = "case is not an object";
            id = NULL;
        } else if (!cJSON_IsString(id)) {
            r.error = "\"id\" must be a string";
            id = NULL;
        } else {
            /* FNV-1a over the id */
            unsigned long h = 1469598103UL;
            for (const unsigned char *p = (const unsigned char *)id->valuestring; *p; ++p) h = (h ^ *p) * 16777619UL;
            size_t slot = h & (cap - 1);
            int dup = 0;
            while (seen[slot]) {
                if (strcmp(seen[slot], id->valuestring) == 0) { dup = 1; break; }
                slot = (slot + 1) & (cap - 1);
            }
            if (dup) {
                char q[MAX_QUOTED + 1];
                truncated(q, id->valuestring);
                snprintf(r.error_buf, sizeof r.error_buf, "duplicate id \"%s\"", q);
                r.error = r.error_buf;
            } else {
                seen[slot] = id->valuestring;
                if (read_case(c, &in, r.error_buf, sizeof r.error_buf)) run_case(&in, &r);
                else r.error = r.error_buf;
            }
        }
        if (check) {
            const cJSON *expect = cJSON_IsObject(c) ? member(c, "expect") : NULL;
            k.id = id;
            if (!expect) skipped++;
            else if (check_case(&k, expect, &in, &r)) passed++;
            else failed++;
        } else {
            if (!first) sb_puts(&out_buf, ",\n");
            first = 0;
            print_result(&out_buf, id, &r);
        }
    }
    free(seen);
    int status = check && failed ? SLABCAST_CASES_EXIT_FAILED : SLABCAST_CASES_EXIT_OK;
    if (out_buf.oom || k.out.oom) {
        out_puts(err, "slabcast-cases: out of memory\n");
        status = SLABCAST_CASES_EXIT_REFUSED;
    } else if (check) {
        if (k.out.p) out_puts(out, k.out.p);
        out_printf(out, "%d passed, %d failed", passed, failed);
        if (skipped) out_printf(out, ", %d skipped", skipped);
        out_puts(out, "\n");
    } else {
        if (!first) sb_puts(&out_buf, "\n");
        sb_puts(&out_buf, "]}\n");
        if (out_buf.oom) {
            out_puts(err, "slabcast-cases: out of memory\n");
            status = SLABCAST_CASES_EXIT_REFUSED;
        } else {
            out_puts(out, out_buf.p);
        }
    }
    free(out_buf.p);
    free(k.out.p);
    cJSON_Delete(doc);
    return status;
}

/* The whole file, NUL-terminated, in a fresh buffer; NULL (message on err) when it cannot be
 * read or is larger than MAX_FILE_BYTES. */
static char *read_file(const char *path, long *size_out, FILE *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        out_printf(err, "slabcast-cases: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    long len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap > MAX_FILE_BYTES) break;
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, (size_t)cap + 1);
            if (!nb) { free(buf); fclose(f); out_puts(err, "slabcast-cases: out of memory\n"); return NULL; }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, (size_t)(cap - len), f);
        if (n == 0) break;
        len += (long)n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        out_printf(err, "slabcast-cases: cannot read %s: read error\n", path);
        free(buf);
        return NULL;
    }
    if (len > MAX_FILE_BYTES) {
        out_printf(err, "slabcast-cases: %s is too large (the limit is %ld bytes)\n", path, MAX_FILE_BYTES);
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    *size_out = len;
    return buf;
}

int slabcast_cases_run_file(slabcast_cases_mode mode, const char *path, FILE *out, FILE *err)
{
    long size = 0;
    char *text = read_file(path, &size, err);
    if (!text) return SLABCAST_CASES_EXIT_REFUSED;
    int status = slabcast_cases_run_text(mode, path, text, (size_t)size, out, err);
    free(text);
    return status;
}
