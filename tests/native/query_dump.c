/* Native side of tests/web/native-wasm-queries.test.mjs: reads a scene and queries written by the
 * test (little-endian int32 counts and float32 arrays), runs the world's sweeps, nearest objects
 * and overlaps natively, and writes the raw results, so that the test can compare them byte for
 * byte with the wasm build's.
 *   input:  nA nS nO nC | aabbs[6nA] spheres[4nS] obbs[15nO] capsules[7nC] | m | sphere sweeps[8m]
 *           box sweeps[10m] capsule sweeps[11m] points[3m] | q | aabb volumes[6q] sphere volumes[4q]
 *           obb volumes[15q] capsule volumes[7q] frusta[24q]
 *   output: spheres: t[m] index[m] normal[3m] point[3m]; boxes, capsules: the same; nearest:
 *           index[m] distance[m] point[3m]; then per volume (aabb, sphere, obb, capsule, frustum;
 *           q each): total, indices[total]
 * Usage: slabcast_query_dump IN OUT */
#include "slabcast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static FILE *g_in;

static int32_t rd_i32(void)
{
    int32_t v = 0;
    if (fread(&v, sizeof v, 1, g_in) != 1) exit(3);
    return v;
}

static float *rd_f32(size_t n)
{
    float *p = malloc(sizeof(float) * (n ? n : 1));
    if (!p || fread(p, sizeof(float), n, g_in) != n) exit(3);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !(g_in = fopen(argv[1], "rb"))) return 2;
    FILE *out = fopen(argv[2], "wb");
    if (!out) return 2;
    int32_t na = rd_i32(), ns = rd_i32(), no = rd_i32(), nc = rd_i32();
    float *a = rd_f32(6 * (size_t)na), *s = rd_f32(4 * (size_t)ns), *o = rd_f32(15 * (size_t)no), *c = rd_f32(7 * (size_t)nc);
    int32_t m = rd_i32();
    float *sw = rd_f32(8 * (size_t)m), *bw = rd_f32(10 * (size_t)m), *cw = rd_f32(11 * (size_t)m), *pts = rd_f32(3 * (size_t)m);
    int32_t q = rd_i32();
    float *va = rd_f32(6 * (size_t)q), *vs = rd_f32(4 * (size_t)q), *vo = rd_f32(15 * (size_t)q), *vc = rd_f32(7 * (size_t)q),
          *vf = rd_f32(24 * (size_t)q);
    sc_world *w = sc_world_create();
    int32_t first;
    if (sc_world_add_aabbs(w, a, na, &first) || sc_world_add_spheres(w, s, ns, &first) ||
        sc_world_add_obbs(w, o, no, &first) || sc_world_add_capsules(w, c, nc, &first) || sc_world_commit(w))
        return 4;
    int32_t n = na + ns + no + nc;
    float *t = malloc(sizeof(float) * (size_t)(m ? m : 1)), *nrm = malloc(sizeof(float) * 3 * (size_t)(m ? m : 1));
    float *pt = malloc(sizeof(float) * 3 * (size_t)(m ? m : 1));
    int32_t *idx = malloc(sizeof(int32_t) * (size_t)(m ? m : 1)), *ov = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    for (int kind = 0; kind < 3; ++kind) {
        if ((kind == 2   ? sc_world_cast_capsules(w, cw, m, t, idx, nrm, pt, NULL, NULL)
             : kind == 1 ? sc_world_cast_boxes(w, bw, m, t, idx, nrm, pt, NULL, NULL)
                         : sc_world_cast_spheres(w, sw, m, t, idx, nrm, pt, NULL, NULL)) != SC_OK)
            return 5;
        fwrite(t, sizeof(float), (size_t)m, out);
        fwrite(idx, sizeof(int32_t), (size_t)m, out);
        fwrite(nrm, sizeof(float), 3 * (size_t)m, out);
        fwrite(pt, sizeof(float), 3 * (size_t)m, out);
    }
    if (sc_world_closest_objects(w, pts, m, INFINITY, idx, t, pt, NULL, NULL) != SC_OK) return 6;
    fwrite(idx, sizeof(int32_t), (size_t)m, out);
    fwrite(t, sizeof(float), (size_t)m, out);
    fwrite(pt, sizeof(float), 3 * (size_t)m, out);
    for (int kind = 0; kind < 5; ++kind) {
        for (int i = 0; i < q; ++i) {
            int32_t total = 0;
            sc_status st;
            if (kind == 0) {
                const float *v = va + 6 * i;
                sc_aabb b = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
                st = sc_world_overlap_aabb(w, &b, ov, n, &total, NULL);
            } else if (kind == 1) {
                const float *v = vs + 4 * i;
                sc_sphere sp = {{v[0], v[1], v[2]}, v[3]};
                st = sc_world_overlap_sphere(w, &sp, ov, n, &total, NULL);
            } else if (kind == 2) {
                const float *v = vo + 15 * i;
                sc_obb b = {{v[0], v[1], v[2]}, {{v[3], v[4], v[5]}, {v[6], v[7], v[8]}, {v[9], v[10], v[11]}}, {v[12], v[13], v[14]}};
                st = sc_world_overlap_obb(w, &b, ov, n, &total, NULL);
            } else if (kind == 3) {
                const float *v = vc + 7 * i;
                sc_capsule cp = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, v[6]};
                st = sc_world_overlap_capsule(w, &cp, ov, n, &total, NULL);
            } else {
                st = sc_world_overlap_frustum(w, vf + 24 * i, ov, n, &total, NULL);
            }
            if (st != SC_OK) return 7;
            fwrite(&total, sizeof total, 1, out);
            fwrite(ov, sizeof(int32_t), (size_t)total, out);
        }
    }
    fclose(out);
    sc_world_destroy(w);
    return 0;
}
