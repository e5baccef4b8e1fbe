/* textures: CUDA arrays, texture objects and surface objects.
 *
 *  - cudaMallocArray + cudaMemcpy2DToArray / cudaMemcpy2DFromArray;
 *  - tex2D with point filtering on unnormalised coordinates (clamp and
 *    border addressing) and with normalised coordinates (wrap, mirror);
 *  - tex2D with linear filtering: bilinear weights in 1.8 fixed point, as
 *    the CUDA programming guide's "Texture Fetching" appendix describes;
 *  - cudaReadModeNormalizedFloat on uchar4 texels;
 *  - tex1Dfetch on linear memory (out of range reads 0) and tex2D on a
 *    pitched allocation (cudaResourceTypePitch2D);
 *  - a layered array (tex2DLayered) filled with cudaMemcpy3D, and a cube
 *    map (texCubemap) sampled at each face's centre;
 *  - surf2Dwrite / surf2Dread on an array made with cudaArraySurfaceLoadStore;
 *  - cudaDestroyTextureObject / cudaDestroySurfaceObject, cudaFreeArray.
 * The expected values are computed on the host from the documented rules.
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static int failures;

static void expect(const char *what, int i, float got, float want, float tol) {
  if (!(fabsf(got - want) <= tol)) {
    if (failures++ < 10)
      printf("FAILED: %s[%d] = %.7g, expected %.7g\n", what, i, got, want);
  }
}

__global__ void fetch2d(cudaTextureObject_t t, const float2 *xy, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

__global__ void fetch2d_u4(cudaTextureObject_t t, const float2 *xy, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

__global__ void fetch1d(cudaTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i - 2);
}

__global__ void fetch_layered(cudaTextureObject_t t, float *out, int w, int h, int layers) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x < w && y < h && l < layers)
    out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void fetch_cube(cudaTextureObject_t t, float *out) {
  /* each face's centre: +x, -x, +y, -y, +z, -z */
  const float d[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
  int f = threadIdx.x;
  if (f < 6) out[f] = texCubemap<float>(t, d[f][0], d[f][1], d[f][2]);
}

__global__ void surf_square(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    float v = surf2Dread<float>(s, x * (int) sizeof(float), y);
    surf2Dwrite(v * v + 1.0f, s, x * (int) sizeof(float), y);
  }
}

/* Host reference of one texel fetch (unnormalised texel coordinates). */
static float texel(const float *img, int w, int h, int x, int y, bool border) {
  if (border && (x < 0 || y < 0 || x >= w || y >= h)) return 0.0f;
  x = x < 0 ? 0 : x >= w ? w - 1 : x;
  y = y < 0 ? 0 : y >= h ? h - 1 : y;
  return img[y * w + x];
}

static float frac8(float v) { return rintf((v - floorf(v)) * 256.0f) / 256.0f; }

static float bilinear(const float *img, int w, int h, float x, float y) {
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = (int) floorf(xb), j = (int) floorf(yb);
  float a = frac8(xb), b = frac8(yb);
  return (1 - a) * (1 - b) * texel(img, w, h, i, j, false) + a * (1 - b) * texel(img, w, h, i + 1, j, false)
       + (1 - a) * b * texel(img, w, h, i, j + 1, false) + a * b * texel(img, w, h, i + 1, j + 1, false);
}

static cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureFilterMode filter, cudaTextureAddressMode mode,
                                    int normalized, cudaTextureReadMode read = cudaReadModeElementType) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = mode;
  t.filterMode = filter;
  t.readMode = read;
  t.normalizedCoords = normalized;
  cudaTextureObject_t obj = 0;
  CHECK(cudaCreateTextureObject(&obj, &r, &t, NULL));
  return obj;
}

int main() {
  const int W = 7, H = 5, N = 64;
  float img[H * W];
  for (int i = 0; i < H * W; i++) img[i] = (float) ((i * 37) % 23) - 4.5f;

  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  float back[H * W];
  CHECK(cudaMemcpy2DFromArray(back, W * sizeof(float), arr, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  for (int i = 0; i < H * W; i++) expect("array round trip", i, back[i], img[i], 0);

  float2 xy[N];
  for (int i = 0; i < N; i++) xy[i] = make_float2(-1.3f + 0.173f * i, -0.9f + 0.119f * i);
  float2 *d_xy;
  float *d_out;
  float out[N];
  CHECK(cudaMalloc(&d_xy, sizeof xy));
  CHECK(cudaMalloc(&d_out, N * 6 * sizeof(float)));
  CHECK(cudaMemcpy(d_xy, xy, sizeof xy, cudaMemcpyHostToDevice));

  /* point, clamp / border, unnormalised */
  for (int border = 0; border < 2; border++) {
    cudaTextureObject_t t = make_tex(arr, cudaFilterModePoint, border ? cudaAddressModeBorder : cudaAddressModeClamp, 0);
    fetch2d<<<1, N>>>(t, d_xy, d_out, N);
    CHECK(cudaMemcpy(out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
      expect(border ? "point/border" : "point/clamp", i, out[i],
             texel(img, W, H, (int) floorf(xy[i].x), (int) floorf(xy[i].y), border), 0);
    CHECK(cudaDestroyTextureObject(t));
  }
  /* linear, clamp, unnormalised */
  {
    cudaTextureObject_t t = make_tex(arr, cudaFilterModeLinear, cudaAddressModeClamp, 0);
    fetch2d<<<1, N>>>(t, d_xy, d_out, N);
    CHECK(cudaMemcpy(out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) expect("linear/clamp", i, out[i], bilinear(img, W, H, xy[i].x, xy[i].y), 1e-5f);
    CHECK(cudaDestroyTextureObject(t));
  }
  /* point, wrap and mirror, normalised coordinates */
  for (int mirror = 0; mirror < 2; mirror++) {
    cudaTextureObject_t t = make_tex(arr, cudaFilterModePoint, mirror ? cudaAddressModeMirror : cudaAddressModeWrap, 1);
    fetch2d<<<1, N>>>(t, d_xy, d_out, N);
    CHECK(cudaMemcpy(out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      float u = xy[i].x, v = xy[i].y;
      if (mirror) {
        float mu = u - 2 * floorf(u / 2), mv = v - 2 * floorf(v / 2);
        u = mu < 1 ? mu : 2 - mu;
        v = mv < 1 ? mv : 2 - mv;
      } else {
        u -= floorf(u);
        v -= floorf(v);
      }
      int x = (int) floorf(u * W), y = (int) floorf(v * H);
      if (!mirror) { x %= W; y %= H; }
      expect(mirror ? "point/mirror" : "point/wrap", i, out[i], texel(img, W, H, x, y, false), 0);
    }
    CHECK(cudaDestroyTextureObject(t));
  }

  /* uchar4 read as normalised floats */
  {
    uchar4 px[H * W];
    for (int i = 0; i < H * W; i++) px[i] = make_uchar4(i * 7, 255 - i, i * 3, 128);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a4;
    CHECK(cudaMallocArray(&a4, &cd, W, H));
    CHECK(cudaMemcpy2DToArray(a4, 0, 0, px, W * sizeof(uchar4), W * sizeof(uchar4), H, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = make_tex(a4, cudaFilterModePoint, cudaAddressModeClamp, 0, cudaReadModeNormalizedFloat);
    float4 *d4;
    float4 o4[N];
    CHECK(cudaMalloc(&d4, sizeof o4));
    fetch2d_u4<<<1, N>>>(t, d_xy, d4, N);
    CHECK(cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      int x = (int) floorf(xy[i].x), y = (int) floorf(xy[i].y);
      x = x < 0 ? 0 : x >= W ? W - 1 : x;
      y = y < 0 ? 0 : y >= H ? H - 1 : y;
      uchar4 p = px[y * W + x];
      expect("uchar4 normalised .x", i, o4[i].x, p.x / 255.0f, 1e-6f);
      expect("uchar4 normalised .y", i, o4[i].y, p.y / 255.0f, 1e-6f);
      expect("uchar4 normalised .w", i, o4[i].w, p.w / 255.0f, 1e-6f);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a4));
    CHECK(cudaFree(d4));
  }

  /* tex1Dfetch on linear memory: indices -2 .. N-3, outside reads 0 */
  {
    int lin[N], got[N];
    for (int i = 0; i < N; i++) lin[i] = 1000 + i * i;
    int *d_lin, *d_got;
    CHECK(cudaMalloc(&d_lin, sizeof lin));
    CHECK(cudaMalloc(&d_got, sizeof got));
    CHECK(cudaMemcpy(d_lin, lin, sizeof lin, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d_lin;
    r.res.linear.desc = cudaCreateChannelDesc<int>();
    r.res.linear.sizeInBytes = (N - 4) * sizeof(int);   /* the last 4 are outside */
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    fetch1d<<<1, N>>>(t, d_got, N);
    CHECK(cudaMemcpy(got, d_got, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
      int idx = i - 2, want = idx >= 0 && idx < N - 4 ? lin[idx] : 0;
      expect("tex1Dfetch", i, (float) got[i], (float) want, 0);
    }
    CHECK(cudaDestroyTextureObject(t));

    /* pitched 2-D memory */
    size_t pitch;
    float *d_img;
    CHECK(cudaMallocPitch(&d_img, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(d_img, pitch, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d_img;
    r.res.pitch2D.desc = fd;
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    fetch2d<<<1, N>>>(t, d_xy, d_out, N);
    CHECK(cudaMemcpy(out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) expect("pitch2D linear", i, out[i], bilinear(img, W, H, xy[i].x, xy[i].y), 1e-5f);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_lin));
    CHECK(cudaFree(d_got));
  }

  /* layered array via cudaMemcpy3D, and a cube map */
  {
    const int L = 3;
    float lay[L * H * W];
    for (int i = 0; i < L * H * W; i++) lay[i] = i * 0.25f;
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(lay, W * sizeof(float), W, H);
    p.dstArray = la;
    p.extent = make_cudaExtent(W, H, L);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaTextureObject_t t = make_tex(la, cudaFilterModePoint, cudaAddressModeClamp, 0);
    float *d_lay, got[L * H * W];
    CHECK(cudaMalloc(&d_lay, sizeof got));
    fetch_layered<<<L, dim3(W, H)>>>(t, d_lay, W, H, L);
    CHECK(cudaMemcpy(got, d_lay, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < L * H * W; i++) expect("tex2DLayered", i, got[i], lay[i], 0);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(la));

    const int C = 4;
    float cube[6 * C * C];
    for (int f = 0; f < 6; f++)
      for (int i = 0; i < C * C; i++) cube[f * C * C + i] = f * 100.0f + i;
    cudaArray_t ca;
    CHECK(cudaMalloc3DArray(&ca, &fd, make_cudaExtent(C, C, 6), cudaArrayCubemap));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(cube, C * sizeof(float), C, C);
    p.dstArray = ca;
    p.extent = make_cudaExtent(C, C, 6);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    t = make_tex(ca, cudaFilterModePoint, cudaAddressModeClamp, 1);
    fetch_cube<<<1, 6>>>(t, d_lay);
    CHECK(cudaMemcpy(got, d_lay, 6 * sizeof(float), cudaMemcpyDeviceToHost));
    /* the centre of each face is its texel (C/2, C/2) */
    for (int f = 0; f < 6; f++) expect("texCubemap", f, got[f], cube[f * C * C + (C / 2) * C + C / 2], 0);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(ca));
    CHECK(cudaFree(d_lay));
  }

  /* surfaces */
  {
    cudaArray_t sa;
    CHECK(cudaMallocArray(&sa, &fd, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(sa, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = sa;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    surf_square<<<dim3(1, H), 32>>>(s, W, H);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DFromArray(back, W * sizeof(float), sa, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    for (int i = 0; i < H * W; i++) expect("surface", i, back[i], img[i] * img[i] + 1.0f, 0);
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(sa));
  }

  CHECK(cudaFreeArray(arr));
  CHECK(cudaFree(d_xy));
  CHECK(cudaFree(d_out));
  CHECK(cudaDeviceSynchronize());
  if (failures) {
    printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
