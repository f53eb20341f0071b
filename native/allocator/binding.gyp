{
  "targets": [
    {
      "target_name": "allocator",
      "sources": ["allocator.c"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
