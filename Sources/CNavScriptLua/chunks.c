/* The process's cache of compiled chunks (see navscript_lua.h). */
#include "navscript_lua.h"

#include <pthread.h>
#include <stdint.h>

static clua_ChunkCache navscript_lua_chunks = {PTHREAD_MUTEX_INITIALIZER, {0}, 0, 0, 0, 0};

static uint64_t clua_chunks_hash_name(const char *name) {
    uint64_t h = 1469598103934665603ULL;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h;
}

/* A hash of the bytes, eight at a time: it only picks the entry; bytes are compared whole before use. */
static uint64_t clua_chunks_hash_source(const char *source, size_t length) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ length, word;
    for (; length >= 8; source += 8, length -= 8) {
        memcpy(&word, source, 8);
        h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    for (; length > 0; source++, length--) h = (h ^ (unsigned char)*source) * 1099511628211ULL;
    return h;
}

static clua_ChunkKey clua_chunks_key(const char *source, size_t length, const char *name, int file_header) {
    clua_ChunkKey key;
    key.source = source;
    key.length = length;
    key.name = name;
    key.file_header = file_header;
    key.name_hash = clua_chunks_hash_name(name);
    key.source_hash = clua_chunks_hash_source(source, length);
    return key;
}

/* The entry of `key`, or NULL; with the lock held. An entry with bytecode matches only the same bytes. */
static clua_Chunk *clua_chunks_find_locked(clua_ChunkCache *cache, const clua_ChunkKey *key) {
    clua_Chunk *e;
    for (e = cache->buckets[key->name_hash % CLUA_CHUNKS_BUCKETS]; e != NULL; e = e->next) {
        if (e->name_hash == key->name_hash && e->source_hash == key->source_hash
            && e->source_length == key->length && e->file_header == key->file_header
            && strcmp(e->name, key->name) == 0
            && (e->source == NULL || key->length == 0 || memcmp(e->source, key->source, key->length) == 0))
            return e;
    }
    return NULL;
}

/* What the cache knows of `key` (CLUA_CHUNK_…), counting the load; the bytecode when it has it. */
static int clua_chunks_lookup(const clua_ChunkKey *key, const unsigned char **bytecode, size_t *bytecode_length) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    clua_Chunk *e;
    int known;
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, key);
    if (e != NULL && e->bytecode != NULL) {
        *bytecode = e->bytecode;   /* never freed or changed once set */
        *bytecode_length = e->bytecode_length;
        known = CLUA_CHUNK_BYTECODE;
        cache->hits++;
    } else {
        known = e != NULL ? CLUA_CHUNK_COMPILED_ONCE : CLUA_CHUNK_UNKNOWN;
        cache->compiles++;
    }
    pthread_mutex_unlock(&cache->lock);
    return known;
}

int clua_chunks_contains(const char *source, size_t length, const char *name, int file_header) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    clua_ChunkKey key = clua_chunks_key(source, length, name, file_header);
    clua_Chunk *e;
    int contains;
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, &key);
    contains = e != NULL && e->bytecode != NULL;
    pthread_mutex_unlock(&cache->lock);
    return contains;
}

/* Notes that `key` was compiled; with `bytecode` (malloc'd, or NULL), keeps it and a copy of the
 * bytes, which the cache then owns. Nothing when the cache is full (unless `always`) or out of memory. */
static void clua_chunks_remember(const clua_ChunkKey *key, unsigned char *bytecode, size_t bytecode_length,
                                        int always) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    size_t name_length = strlen(key->name);
    size_t kept = bytecode != NULL ? key->length + bytecode_length : 0;   /* what the bytecode brings */
    size_t size = sizeof(clua_Chunk) + name_length + 1 + kept;           /* what a new entry brings */
    char *source = NULL;
    clua_Chunk *e;
    /* A hint without the lock (a relaxed read: the count only grows), so a full cache copies nothing. */
    if (!always && __atomic_load_n(&cache->bytes, __ATOMIC_RELAXED) + kept > CLUA_CHUNKS_LIMIT) {
        free(bytecode);
        return;
    }
    if (bytecode != NULL && (source = (char *)malloc(key->length > 0 ? key->length : 1)) == NULL) {
        free(bytecode);
        return;
    }
    if (source != NULL && key->length > 0) memcpy(source, key->source, key->length);
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, key);
    if (e != NULL) {
        /* The second compile: the entry gets its bytes and bytecode (unless another thread gave them). */
        if (e->bytecode == NULL && bytecode != NULL && (always || cache->bytes + kept <= CLUA_CHUNKS_LIMIT)) {
            e->source = source;
            e->bytecode = bytecode;
            e->bytecode_length = bytecode_length;
            __atomic_store_n(&cache->bytes, cache->bytes + kept, __ATOMIC_RELAXED);
            source = NULL;
            bytecode = NULL;
        }
        pthread_mutex_unlock(&cache->lock);
        free(source);
        free(bytecode);
        return;
    }
    pthread_mutex_unlock(&cache->lock);
    e = (clua_Chunk *)malloc(sizeof(clua_Chunk) + name_length + 1);
    if (e == NULL) {
        free(source);
        free(bytecode);
        return;
    }
    e->name_hash = key->name_hash;
    e->source_hash = key->source_hash;
    e->source_length = key->length;
    e->file_header = key->file_header;
    e->name = (char *)(e + 1);
    memcpy(e->name, key->name, name_length + 1);
    e->source = source;
    e->bytecode = bytecode;
    e->bytecode_length = bytecode != NULL ? bytecode_length : 0;
    pthread_mutex_lock(&cache->lock);
    if (clua_chunks_find_locked(cache, key) != NULL || (!always && cache->bytes + size > CLUA_CHUNKS_LIMIT)) {
        pthread_mutex_unlock(&cache->lock);   /* another thread was first, or the cache is full */
        free(source);
        free(bytecode);
        free(e);
        return;
    }
    e->next = cache->buckets[key->name_hash % CLUA_CHUNKS_BUCKETS];
    cache->buckets[key->name_hash % CLUA_CHUNKS_BUCKETS] = e;
    __atomic_store_n(&cache->bytes, cache->bytes + size, __ATOMIC_RELAXED);
    cache->entries++;
    pthread_mutex_unlock(&cache->lock);
}

void clua_chunks_statistics(size_t *entries, size_t *bytes, size_t *hits, size_t *compiles) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    pthread_mutex_lock(&cache->lock);
    *entries = cache->entries;
    *bytes = cache->bytes;
    *hits = cache->hits;
    *compiles = cache->compiles;
    pthread_mutex_unlock(&cache->lock);
}

static const char *clua_piece_read(lua_State *L, void *ud, size_t *size) {
    clua_Piece *piece = (clua_Piece *)ud;
    const char *data = piece->data;
    (void)L;
    *size = piece->size;
    piece->data = NULL;
    piece->size = 0;
    return *size > 0 ? data : NULL;
}

int clua_load_capped(lua_State *L, const char *data, size_t size, const char *chunkname,
                                   const char *mode) {
    clua_Control *c = clua_control(L);
    clua_Piece piece;
    int saved_side = c->lua_side, status;
    piece.data = data;
    piece.size = size;
    c->lua_side = 1;
    c->memory_refused = 0;
    status = lua_load(L, clua_piece_read, &piece, chunkname, mode);
    c->lua_side = saved_side;
    return status;
}

static int clua_dump_write(lua_State *L, const void *p, size_t size, void *ud) {
    clua_DumpBuffer *b = (clua_DumpBuffer *)ud;
    (void)L;
    if (b->failed) return 1;
    if (b->size + size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        unsigned char *data;
        while (capacity < b->size + size) capacity *= 2;
        data = (unsigned char *)realloc(b->data, capacity);
        if (data == NULL) {
            b->failed = 1;
            return 1;
        }
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, p, size);
    b->size += size;
    return 0;
}

/* The function on top of the stack as bytecode of exactly its size (malloc'd), or NULL. Never raises. */
static unsigned char *clua_dump_top(lua_State *L, size_t *length) {
    clua_DumpBuffer dump = {NULL, 0, 0, 0};
    unsigned char *fitted;
    if (lua_dump(L, clua_dump_write, &dump, 0) != 0 || dump.failed || dump.size == 0) {
        free(dump.data);
        return NULL;
    }
    fitted = (unsigned char *)realloc(dump.data, dump.size);
    *length = dump.size;
    return fitted != NULL ? fitted : dump.data;
}

uint64_t clua_function_digest(lua_State *L, int index) {
    clua_DumpBuffer dump = {NULL, 0, 0, 0};
    uint64_t hash = 14695981039346656037ULL; /* FNV-1a */
    size_t i;
    if (!lua_isfunction(L, index) || lua_iscfunction(L, index) || !lua_checkstack(L, 1)) return 0;
    lua_pushvalue(L, index);
    if (lua_dump(L, clua_dump_write, &dump, 0) != 0 || dump.failed) dump.size = 0;
    lua_pop(L, 1);
    for (i = 0; i < dump.size; i++) {
        hash ^= dump.data[i];
        hash *= 1099511628211ULL;
    }
    free(dump.data);
    return dump.size == 0 ? 0 : hash;
}

int clua_loadcached(lua_State *L, const char *source, size_t length, const char *chunkname,
                                  int file_header, int dump_now) {
    int cacheable = length <= CLUA_CHUNK_MAX;
    clua_ChunkKey key;
    const unsigned char *bytecode = NULL;
    size_t bytecode_length = 0;
    int known = CLUA_CHUNK_UNKNOWN, status;
    const char *text = source;
    size_t size = length;
    if (cacheable) {
        key = clua_chunks_key(source, length, chunkname, file_header);
        known = clua_chunks_lookup(&key, &bytecode, &bytecode_length);
    }
    if (known == CLUA_CHUNK_BYTECODE) {
        status = clua_load_capped(L, (const char *)bytecode, bytecode_length, chunkname, "b");
        if (status == LUA_OK) clua_control(L)->chunks_from_bytecode++;
        return status;
    }
    if (file_header) {
        if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            size -= 3;
        }
        if (size > 0 && text[0] == '#') {
            const char *newline = (const char *)memchr(text, '\n', size);
            size_t skipped = newline ? (size_t)(newline - text) : size;
            text += skipped;   /* from the line's own newline on */
            size -= skipped;
        }
    }
    status = clua_load_capped(L, text, size, chunkname, "t");
    if (status == LUA_OK && cacheable) {
        unsigned char *dumped = NULL;
        size_t dumped_length = 0;
        if (known == CLUA_CHUNK_COMPILED_ONCE || dump_now) dumped = clua_dump_top(L, &dumped_length);
        clua_chunks_remember(&key, dumped, dumped_length, dump_now);
    }
    return status;
}

int clua_loadfile(lua_State *L, const char *path, const char *chunkname) {
    const char *shown = chunkname[0] == '@' ? chunkname + 1 : chunkname;
    size_t bound = clua_control(L)->memory_limit ? clua_control(L)->memory_limit : CLUA_FILE_MAX;
    char small[4096];
    char *buffer = small;
    size_t length = 0, capacity = sizeof small;
    ssize_t n;
    int status, error = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd < 0 && errno == EPERM) fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        lua_pushfstring(L, "cannot open %s (%s)", shown, strerror(errno));
        return LUA_ERRFILE;
    }
    for (;;) {
        if (length > bound) {   /* one byte past the bound says the file is larger */
            error = EFBIG;
            break;
        }
        if (length == capacity) {
            size_t wanted = capacity * 2 < bound + 1 ? capacity * 2 : bound + 1;
            char *grown = (char *)malloc(wanted);
            if (grown == NULL) {
                error = ENOMEM;
                break;
            }
            memcpy(grown, buffer, length);
            if (buffer != small) free(buffer);
            buffer = grown;
            capacity = wanted;
        }
        n = read(fd, buffer + length, capacity - length);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = errno;
        if (n <= 0) break;
        length += (size_t)n;
    }
    close(fd);
    if (error != 0) {
        if (buffer != small) free(buffer);
        if (error == EFBIG)
            lua_pushfstring(L, "cannot read %s (larger than %I bytes, %s)", shown, (lua_Integer)bound,
                            clua_control(L)->memory_limit ? "the state's memory limit" : "the most a file may be");
        else
            lua_pushfstring(L, "cannot read %s (%s)", shown, strerror(error));
        return LUA_ERRFILE;
    }
    status = clua_loadcached(L, buffer, length, chunkname, 1, 0);
    if (buffer != small) free(buffer);
    return status;
}
