// glibc's malloc raises its mmap threshold each time a large mapped buffer is freed (up to 32 MB),
// after which buffers of many MB come from its arenas and stay there, fragmented, once freed. The
// daemon handles 40 MB messages on several threads; a fixed threshold sends every large buffer back
// to the system when it is freed. The same as MALLOC_MMAP_THRESHOLD_, set from inside the process.
#include <node_api.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static napi_value fix_mmap_threshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  uint32_t bytes = 0;
  int done = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc == 1 &&
      napi_get_value_uint32(env, argv[0], &bytes) == napi_ok) {
#ifdef __GLIBC__
    done = mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1;
#endif
  }
  napi_value result;
  napi_get_boolean(env, done, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "fixMmapThreshold", NAPI_AUTO_LENGTH, fix_mmap_threshold, NULL, &fn);
  napi_set_named_property(env, exports, "fixMmapThreshold", fn);
  return exports;
}
