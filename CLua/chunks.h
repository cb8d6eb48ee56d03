/*
 * CLua chunk cache: the chunks the bridge compiles from files (scenario
 * files, support modules) and navscript's own Lua (the preludes), kept as
 * bytecode with their debug information for the life of the process.
 *
 * Why: parsing is the largest cost of loading a small file, larger than
 * restoring the state it runs in, and the same text is compiled again and
 * again in one process — a support module by every file that requires it,
 * every file once per fault under `mutate`, the preludes by every state
 * prepared. Loading the dump gives the same function (source name, lines
 * and local names are kept, so messages and tracebacks do not change) for
 * a fraction of the cost. A file's chunk is dumped when it is compiled a
 * second time: dumping costs a fair part of what it saves, and most files
 * run once per process (`navscript run`).
 *
 * An entry is found by its chunk name and the exact bytes compiled: a file
 * edited since is compiled again. Bytecode only ever comes from a dump of
 * text this cache compiled itself; scripts still cannot load binary chunks
 * by any path. Entries are never freed (a thread may be loading one while
 * another looks up), so the cache stops storing at CLUA_CHUNKS_LIMIT bytes.
 *
 * Like the region, the cache is one `weak` global shared by every Swift
 * module that imports this header; a mutex guards it for states on
 * different threads. Part of shim.h, which includes it once clua_Control
 * is defined (its sandbox's loaders use it).
 */
#ifndef CLUA_CHUNKS_H
#define CLUA_CHUNKS_H

#include <pthread.h>
#include <stdint.h>

/* Sources and bytecode the cache holds at most. */
#define CLUA_CHUNKS_LIMIT ((size_t)64 << 20)
#define CLUA_CHUNKS_BUCKETS 512

/* A chunk compiled once (source only) or more often (source and bytecode). Why not dump on the first
 * compile: most files run once per process (`navscript run`), and dumping costs a fair part of what
 * loading the dump later saves; a chunk compiled a second time is likely to be compiled again. */
typedef struct clua_Chunk {
    struct clua_Chunk *next;
    uint64_t name_hash;
    size_t source_length;
    size_t bytecode_length;
    char *name;                /* the chunk name, NUL-terminated */
    char *source;              /* the bytes compiled (a file's, before its BOM or '#' line is skipped) */
    unsigned char *bytecode;   /* lua_dump of the compiled function with debug information; NULL until the second compile */
} clua_Chunk;

typedef struct clua_ChunkCache {
    pthread_mutex_t lock;
    clua_Chunk *buckets[CLUA_CHUNKS_BUCKETS];
    size_t bytes;              /* names, sources and bytecode held */
    size_t entries;
    size_t hits;               /* loads served from bytecode */
    size_t compiles;           /* loads that compiled text */
} clua_ChunkCache;

__attribute__((weak)) clua_ChunkCache navscript_lua_chunks = {PTHREAD_MUTEX_INITIALIZER, {0}, 0, 0, 0, 0};

static inline uint64_t clua_chunks_hash(const char *name) {
    uint64_t h = 1469598103934665603ULL;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h;
}

/* The entry for `name` compiled from exactly these bytes, or NULL; with the lock held. */
static inline clua_Chunk *clua_chunks_find_locked(clua_ChunkCache *cache, uint64_t h, const char *name,
                                                  const char *source, size_t length) {
    clua_Chunk *e;
    for (e = cache->buckets[h % CLUA_CHUNKS_BUCKETS]; e != NULL; e = e->next) {
        if (e->name_hash == h && e->source_length == length && strcmp(e->name, name) == 0
            && (length == 0 || memcmp(e->source, source, length) == 0))
            return e;
    }
    return NULL;
}

/* What the cache knows of `name` with these bytes: 0 nothing, 1 compiled once, 2 bytecode in *bytecode. */
static inline int clua_chunks_lookup(const char *name, const char *source, size_t length,
                                     const unsigned char **bytecode, size_t *bytecode_length) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    clua_Chunk *e;
    int known = 0;
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, clua_chunks_hash(name), name, source, length);
    if (e != NULL && e->bytecode != NULL) {
        *bytecode = e->bytecode;   /* never freed or changed once set */
        *bytecode_length = e->bytecode_length;
        known = 2;
        cache->hits++;
    } else {
        known = e != NULL ? 1 : 0;
        cache->compiles++;
    }
    pthread_mutex_unlock(&cache->lock);
    return known;
}

/* Notes that `name` was compiled from these bytes, with its bytecode when given (malloc'd, or NULL; the
 * cache takes it); nothing when the cache is full or out of memory. */
static inline void clua_chunks_remember(const char *name, const char *source, size_t length,
                                        unsigned char *bytecode, size_t bytecode_length) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    uint64_t h = clua_chunks_hash(name);
    size_t name_length = strlen(name);
    clua_Chunk *e;
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, h, name, source, length);
    if (e != NULL) {
        if (bytecode != NULL && e->bytecode == NULL && cache->bytes + bytecode_length <= CLUA_CHUNKS_LIMIT) {
            e->bytecode = bytecode;
            e->bytecode_length = bytecode_length;
            cache->bytes += bytecode_length;
            bytecode = NULL;
        }
        pthread_mutex_unlock(&cache->lock);
        free(bytecode);
        return;
    }
    pthread_mutex_unlock(&cache->lock);
    {
        size_t size = sizeof(clua_Chunk) + name_length + 1 + length;
        char *block = (char *)malloc(size);
        if (block == NULL) {
            free(bytecode);
            return;
        }
        e = (clua_Chunk *)block;
        e->name_hash = h;
        e->name = block + sizeof(clua_Chunk);
        memcpy(e->name, name, name_length + 1);
        e->source = e->name + name_length + 1;
        if (length > 0) memcpy(e->source, source, length);
        e->source_length = length;
        e->bytecode = bytecode;
        e->bytecode_length = bytecode != NULL ? bytecode_length : 0;
        size += e->bytecode_length;
        pthread_mutex_lock(&cache->lock);
        if (cache->bytes + size > CLUA_CHUNKS_LIMIT || clua_chunks_find_locked(cache, h, name, source, length) != NULL) {
            pthread_mutex_unlock(&cache->lock);
            free(block);
            free(bytecode);
            return;
        }
        e->next = cache->buckets[h % CLUA_CHUNKS_BUCKETS];
        cache->buckets[h % CLUA_CHUNKS_BUCKETS] = e;
        cache->bytes += size;
        cache->entries++;
        pthread_mutex_unlock(&cache->lock);
    }
}

/* The cache's figures (for tests and benchmarks). */
static inline void clua_chunks_statistics(size_t *entries, size_t *bytes, size_t *hits, size_t *compiles) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    pthread_mutex_lock(&cache->lock);
    *entries = cache->entries;
    *bytes = cache->bytes;
    *hits = cache->hits;
    *compiles = cache->compiles;
    pthread_mutex_unlock(&cache->lock);
}

/* ---------------------------------------------------------------- loading through the cache */

/* One piece of memory handed to lua_load at once. */
typedef struct clua_Piece {
    const char *data;
    size_t size;
} clua_Piece;

static inline const char *clua_piece_read(lua_State *L, void *ud, size_t *size) {
    clua_Piece *piece = (clua_Piece *)ud;
    const char *data = piece->data;
    (void)L;
    *size = piece->size;
    piece->data = NULL;
    piece->size = 0;
    return *size > 0 ? data : NULL;
}

/* A growing buffer lua_dump writes into. */
typedef struct clua_DumpBuffer {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} clua_DumpBuffer;

static inline int clua_dump_write(lua_State *L, const void *p, size_t size, void *ud) {
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

/* Pushes the function of `source` named `chunkname`: loaded from the cache's bytecode, or compiled as text
 * (and remembered: the second compile keeps the bytecode, or the first with `dump_now`, for chunks that
 * are sure to be loaded again). With `file_header`, a UTF-8 BOM and a first
 * line starting with '#' are skipped as luaL_loadfilex does (the line's newline is kept, so line numbers
 * do not move). The cap is on while Lua allocates; lua_load is internally protected. Returns lua_load's
 * status (the message on top on error). */
static inline int clua_loadcached(lua_State *L, const char *source, size_t length, const char *chunkname,
                                  int file_header, int dump_now) {
    clua_Control *c = clua_control(L);
    const unsigned char *bytecode = NULL;
    size_t bytecode_length = 0;
    int known = clua_chunks_lookup(chunkname, source, length, &bytecode, &bytecode_length);
    clua_Piece piece;
    int saved_side = c->lua_side, status;
    c->lua_side = 1;
    c->memory_refused = 0;
    if (known == 2) {
        piece.data = (const char *)bytecode;
        piece.size = bytecode_length;
        status = lua_load(L, clua_piece_read, &piece, chunkname, "b");
        c->lua_side = saved_side;
        return status;
    }
    piece.data = source;
    piece.size = length;
    if (file_header) {
        if (piece.size >= 3 && memcmp(piece.data, "\xEF\xBB\xBF", 3) == 0) {
            piece.data += 3;
            piece.size -= 3;
        }
        if (piece.size > 0 && piece.data[0] == '#') {
            const char *newline = (const char *)memchr(piece.data, '\n', piece.size);
            size_t skipped = newline ? (size_t)(newline - piece.data) : piece.size;
            piece.data += skipped;   /* from the line's own newline on */
            piece.size -= skipped;
        }
    }
    status = lua_load(L, clua_piece_read, &piece, chunkname, "t");
    c->lua_side = saved_side;
    if (status == LUA_OK) {
        clua_DumpBuffer dump = {NULL, 0, 0, 0};
        if ((known == 1 || dump_now) && (lua_dump(L, clua_dump_write, &dump, 0) != 0 || dump.failed || dump.size == 0)) {
            free(dump.data);
            dump.data = NULL;
        }
        clua_chunks_remember(chunkname, source, length, dump.data, dump.size);
    }
    return status;
}

/* Whether `source` named `chunkname` is in the cache as bytecode (a state being prepared compiles elsewhere first). */
static inline int clua_chunks_contains(const char *source, size_t length, const char *chunkname) {
    clua_ChunkCache *cache = &navscript_lua_chunks;
    clua_Chunk *e;
    int contains;
    pthread_mutex_lock(&cache->lock);
    e = clua_chunks_find_locked(cache, clua_chunks_hash(chunkname), chunkname, source, length);
    contains = e != NULL && e->bytecode != NULL;
    pthread_mutex_unlock(&cache->lock);
    return contains;
}

/* Loads a file as a chunk named `chunkname` through the cache: the file is read whole with plain
 * read(2) (no FILE: stdio allocated a stream and a second buffer and asked fstat for every file). */
static inline int clua_loadfile(lua_State *L, const char *path, const char *chunkname) {
    char small[4096];
    char *buffer = small;
    size_t length = 0, capacity = sizeof small;
    ssize_t n;
    int status, error = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        lua_pushfstring(L, "cannot open %s (%s)", chunkname[0] == '@' ? chunkname + 1 : chunkname, strerror(errno));
        return LUA_ERRFILE;
    }
    for (;;) {
        if (length == capacity) {
            char *grown = (char *)malloc(capacity * 2);
            if (grown == NULL) {
                error = ENOMEM;
                break;
            }
            memcpy(grown, buffer, length);
            if (buffer != small) free(buffer);
            buffer = grown;
            capacity *= 2;
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
        lua_pushfstring(L, "cannot read %s (%s)", chunkname[0] == '@' ? chunkname + 1 : chunkname, strerror(error));
        return LUA_ERRFILE;
    }
    status = clua_loadcached(L, buffer, length, chunkname, 1, 0);
    if (buffer != small) free(buffer);
    return status;
}

#endif
