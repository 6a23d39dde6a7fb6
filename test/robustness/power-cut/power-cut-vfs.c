/*
 * A SQLite VFS that keeps, beside each database and WAL file, the file as a
 * power cut would leave it: only what an fsync covered. Loaded as an
 * extension, it becomes the default VFS of the process and wraps the one
 * before it ("unix"). Every write and truncation of a main database or WAL
 * file is done as usual and also remembered; when SQLite syncs that file,
 * the remembered changes are applied, in order, to a copy of the same name
 * in $POWER_CUT_DIR. Writes no sync covered never reach the copy, which is
 * the pessimistic model of a power cut (the drive's cache lost whole).
 *
 * Not modelled: directory entries (a file SQLite created counts as durable
 * from the start), torn sectors, reordering inside one sync. The -shm file is
 * not copied: SQLite rebuilds it from the WAL after a crash.
 *
 * Built by test/robustness/power-cut.test.ts with the C compiler and
 * better-sqlite3's own sqlite3ext.h; nothing of it ships.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct Change {
  struct Change *next;
  sqlite3_int64 seq;
  sqlite3_int64 offset;
  int length; /* -1: truncate to offset */
  unsigned char data[];
} Change;

typedef struct PcFile {
  sqlite3_file base;
  int copyFd; /* -1: not a file this VFS copies */
  char *name; /* the file's base name, as its copy is called */
  Change *first, *last;
  sqlite3_int64 nextSeq;
  struct PcFile *nextOpen;
  sqlite3_file *real; /* follows this struct, szOsFile of the wrapped VFS */
} PcFile;

static sqlite3_vfs *wrapped;
/* Copied files now open, for the SQL functions below. */
static PcFile *openFiles;

static void remember(PcFile *p, Change *c) {
  c->seq = p->nextSeq++;
  c->next = 0;
  if (p->last) p->last->next = c; else p->first = c;
  p->last = c;
}

static void forget(PcFile *p) {
  Change *c = p->first;
  while (c) {
    Change *next = c->next;
    sqlite3_free(c);
    c = next;
  }
  p->first = p->last = 0;
}

/* Applies to the copy, in order, the changes numbered below `upTo`. */
static int applyChanges(PcFile *p, sqlite3_int64 upTo) {
  while (p->first && p->first->seq < upTo) {
    Change *c = p->first;
    if (c->length < 0) {
      if (ftruncate(p->copyFd, c->offset) != 0) return SQLITE_IOERR_FSYNC;
    } else if (pwrite(p->copyFd, c->data, c->length, c->offset) != c->length) {
      return SQLITE_IOERR_FSYNC;
    }
    p->first = c->next;
    if (!p->first) p->last = 0;
    sqlite3_free(c);
  }
  return SQLITE_OK;
}

static int pcClose(sqlite3_file *f) {
  PcFile *p = (PcFile *)f;
  int rc = p->real->pMethods->xClose(p->real);
  forget(p); /* never synced: lost */
  if (p->copyFd >= 0) {
    close(p->copyFd);
    for (PcFile **at = &openFiles; *at; at = &(*at)->nextOpen) {
      if (*at == p) {
        *at = p->nextOpen;
        break;
      }
    }
  }
  sqlite3_free(p->name);
  return rc;
}

static int pcRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xRead(p->real, buf, amt, off);
}

static int pcWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
  PcFile *p = (PcFile *)f;
  int rc = p->real->pMethods->xWrite(p->real, buf, amt, off);
  if (rc == SQLITE_OK && p->copyFd >= 0) {
    Change *c = sqlite3_malloc64(sizeof(Change) + amt);
    if (!c) return SQLITE_IOERR_NOMEM;
    c->offset = off;
    c->length = amt;
    memcpy(c->data, buf, amt);
    remember(p, c);
  }
  return rc;
}

static int pcTruncate(sqlite3_file *f, sqlite3_int64 size) {
  PcFile *p = (PcFile *)f;
  int rc = p->real->pMethods->xTruncate(p->real, size);
  if (rc == SQLITE_OK && p->copyFd >= 0) {
    Change *c = sqlite3_malloc64(sizeof(Change));
    if (!c) return SQLITE_IOERR_NOMEM;
    c->offset = size;
    c->length = -1;
    remember(p, c);
  }
  return rc;
}

static int pcSync(sqlite3_file *f, int flags) {
  PcFile *p = (PcFile *)f;
  int rc = p->real->pMethods->xSync(p->real, flags);
  /* Everything written before this call is covered. */
  if (rc == SQLITE_OK && p->copyFd >= 0) rc = applyChanges(p, p->nextSeq);
  return rc;
}

static int pcFileSize(sqlite3_file *f, sqlite3_int64 *size) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xFileSize(p->real, size);
}
static int pcLock(sqlite3_file *f, int lock) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xLock(p->real, lock);
}
static int pcUnlock(sqlite3_file *f, int lock) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xUnlock(p->real, lock);
}
static int pcCheckReservedLock(sqlite3_file *f, int *out) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xCheckReservedLock(p->real, out);
}
static int pcFileControl(sqlite3_file *f, int op, void *arg) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xFileControl(p->real, op, arg);
}
static int pcSectorSize(sqlite3_file *f) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xSectorSize(p->real);
}
static int pcDeviceCharacteristics(sqlite3_file *f) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xDeviceCharacteristics(p->real);
}
static int pcShmMap(sqlite3_file *f, int pg, int sz, int extend, void volatile **out) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xShmMap(p->real, pg, sz, extend, out);
}
static int pcShmLock(sqlite3_file *f, int offset, int n, int flags) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xShmLock(p->real, offset, n, flags);
}
static void pcShmBarrier(sqlite3_file *f) {
  PcFile *p = (PcFile *)f;
  p->real->pMethods->xShmBarrier(p->real);
}
static int pcShmUnmap(sqlite3_file *f, int deleteFlag) {
  PcFile *p = (PcFile *)f;
  return p->real->pMethods->xShmUnmap(p->real, deleteFlag);
}
static int pcFetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **out) {
  /* Pages read through a memory map would bypass nothing here, but writes must
     go through xWrite: refuse the map (SQLite then reads with xRead). */
  (void)f; (void)off; (void)amt;
  *out = 0;
  return SQLITE_OK;
}
static int pcUnfetch(sqlite3_file *f, sqlite3_int64 off, void *ptr) {
  (void)f; (void)off; (void)ptr;
  return SQLITE_OK;
}

static const sqlite3_io_methods pcMethods = {
  3, pcClose, pcRead, pcWrite, pcTruncate, pcSync, pcFileSize, pcLock, pcUnlock,
  pcCheckReservedLock, pcFileControl, pcSectorSize, pcDeviceCharacteristics,
  pcShmMap, pcShmLock, pcShmBarrier, pcShmUnmap, pcFetch, pcUnfetch,
};

static const char *baseName(const char *name) {
  const char *slash = strrchr(name, '/');
  return slash ? slash + 1 : name;
}

/* The copy of `name` in $POWER_CUT_DIR, starting as the file is now (what
   existed before this process counts as durable). */
static int openCopy(const char *name) {
  const char *dir = getenv("POWER_CUT_DIR");
  if (!dir || !name) return -1;
  const char *base = baseName(name);
  char *path = sqlite3_mprintf("%s/%s", dir, base);
  if (!path) return -1;
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd >= 0) {
    int src = open(name, O_RDONLY);
    if (src >= 0) {
      char buf[65536];
      ssize_t n;
      off_t at = 0;
      while ((n = read(src, buf, sizeof buf)) > 0) {
        if (pwrite(fd, buf, n, at) != n) break;
        at += n;
      }
      close(src);
    }
  } else if (errno == EEXIST) {
    fd = open(path, O_RDWR);
  }
  sqlite3_free(path);
  return fd;
}

static int pcOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
  (void)vfs;
  PcFile *p = (PcFile *)f;
  memset(p, 0, sizeof(PcFile));
  p->copyFd = -1;
  p->real = (sqlite3_file *)&p[1];
  int rc = wrapped->xOpen(wrapped, name, p->real, flags, outFlags);
  if (rc != SQLITE_OK) {
    p->base.pMethods = 0;
    return rc;
  }
  if (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL)) p->copyFd = openCopy(name);
  if (p->copyFd >= 0) {
    p->name = sqlite3_mprintf("%s", baseName(name));
    p->nextOpen = openFiles;
    openFiles = p;
  }
  p->base.pMethods = &pcMethods;
  return SQLITE_OK;
}

static int pcDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
  (void)vfs;
  int rc = wrapped->xDelete(wrapped, name, syncDir);
  const char *dir = getenv("POWER_CUT_DIR");
  if (rc == SQLITE_OK && dir) {
    char *path = sqlite3_mprintf("%s/%s", dir, baseName(name));
    if (path) unlink(path);
    sqlite3_free(path);
  }
  return rc;
}

/*
 * For an fsync SQLite does not make (the server's own fdatasync of the WAL,
 * core/durable-commits.ts): power_cut_mark(name), called when that fsync
 * starts, numbers the changes it covers; power_cut_synced(name, mark), when
 * it has completed, applies them. Changes written meanwhile stay pending.
 */
static PcFile *findOpen(sqlite3_value *name) {
  const char *wanted = (const char *)sqlite3_value_text(name);
  for (PcFile *p = openFiles; wanted && p; p = p->nextOpen) {
    if (strcmp(p->name, wanted) == 0) return p;
  }
  return 0;
}

static void markFn(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  PcFile *p = findOpen(argv[0]);
  if (p) sqlite3_result_int64(ctx, p->nextSeq);
  else sqlite3_result_null(ctx);
}

static void syncedFn(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  PcFile *p = findOpen(argv[0]);
  if (!p) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  if (applyChanges(p, sqlite3_value_int64(argv[1])) != SQLITE_OK) {
    sqlite3_result_error(ctx, "power-cut: writing the copy failed", -1);
    return;
  }
  sqlite3_result_int(ctx, 1);
}
static int pcAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
  (void)vfs;
  return wrapped->xAccess(wrapped, name, flags, out);
}
static int pcFullPathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
  (void)vfs;
  return wrapped->xFullPathname(wrapped, name, n, out);
}
static void *pcDlOpen(sqlite3_vfs *vfs, const char *name) {
  (void)vfs;
  return wrapped->xDlOpen(wrapped, name);
}
static void pcDlError(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  wrapped->xDlError(wrapped, n, out);
}
static void (*pcDlSym(sqlite3_vfs *vfs, void *h, const char *sym))(void) {
  (void)vfs;
  return wrapped->xDlSym(wrapped, h, sym);
}
static void pcDlClose(sqlite3_vfs *vfs, void *h) {
  (void)vfs;
  wrapped->xDlClose(wrapped, h);
}
static int pcRandomness(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  return wrapped->xRandomness(wrapped, n, out);
}
static int pcSleep(sqlite3_vfs *vfs, int us) {
  (void)vfs;
  return wrapped->xSleep(wrapped, us);
}
static int pcCurrentTime(sqlite3_vfs *vfs, double *out) {
  (void)vfs;
  return wrapped->xCurrentTime(wrapped, out);
}
static int pcGetLastError(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  return wrapped->xGetLastError ? wrapped->xGetLastError(wrapped, n, out) : 0;
}
static int pcCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
  (void)vfs;
  return wrapped->xCurrentTimeInt64(wrapped, out);
}

static sqlite3_vfs pcVfs = {
  2, 0, 1024, 0, "power-cut", 0,
  pcOpen, pcDelete, pcAccess, pcFullPathname, pcDlOpen, pcDlError, pcDlSym, pcDlClose,
  pcRandomness, pcSleep, pcCurrentTime, pcGetLastError, pcCurrentTimeInt64, 0, 0, 0,
};

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_extension_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  (void)err;
  SQLITE_EXTENSION_INIT2(api);
  int rc = sqlite3_create_function(db, "power_cut_mark", 1, SQLITE_UTF8, 0, markFn, 0, 0);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "power_cut_synced", 2, SQLITE_UTF8, 0, syncedFn, 0, 0);
  }
  if (rc != SQLITE_OK) return rc;
  if (!sqlite3_vfs_find("power-cut")) {
    wrapped = sqlite3_vfs_find(0);
    if (!wrapped) return SQLITE_ERROR;
    pcVfs.szOsFile = (int)sizeof(PcFile) + wrapped->szOsFile;
    pcVfs.mxPathname = wrapped->mxPathname;
    rc = sqlite3_vfs_register(&pcVfs, 1);
  }
  return rc == SQLITE_OK ? SQLITE_OK_LOAD_PERMANENTLY : rc;
}
