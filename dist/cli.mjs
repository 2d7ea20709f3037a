#!/usr/bin/env node
import { createRequire as __ctxlCreateRequire } from 'node:module';
const require = __ctxlCreateRequire(import.meta.url);
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// node_modules/graceful-fs/polyfills.js
var require_polyfills = __commonJS({
  "node_modules/graceful-fs/polyfills.js"(exports, module) {
    var constants3 = __require("constants");
    var origCwd = process.cwd;
    var cwd = null;
    var platform = process.env.GRACEFUL_FS_PLATFORM || process.platform;
    process.cwd = function() {
      if (!cwd)
        cwd = origCwd.call(process);
      return cwd;
    };
    try {
      process.cwd();
    } catch (er) {
    }
    if (typeof process.chdir === "function") {
      chdir = process.chdir;
      process.chdir = function(d) {
        cwd = null;
        chdir.call(process, d);
      };
      if (Object.setPrototypeOf) Object.setPrototypeOf(process.chdir, chdir);
    }
    var chdir;
    module.exports = patch;
    function patch(fs) {
      if (constants3.hasOwnProperty("O_SYMLINK") && process.version.match(/^v0\.6\.[0-2]|^v0\.5\./)) {
        patchLchmod(fs);
      }
      if (!fs.lutimes) {
        patchLutimes(fs);
      }
      fs.chown = chownFix(fs.chown);
      fs.fchown = chownFix(fs.fchown);
      fs.lchown = chownFix(fs.lchown);
      fs.chmod = chmodFix(fs.chmod);
      fs.fchmod = chmodFix(fs.fchmod);
      fs.lchmod = chmodFix(fs.lchmod);
      fs.chownSync = chownFixSync(fs.chownSync);
      fs.fchownSync = chownFixSync(fs.fchownSync);
      fs.lchownSync = chownFixSync(fs.lchownSync);
      fs.chmodSync = chmodFixSync(fs.chmodSync);
      fs.fchmodSync = chmodFixSync(fs.fchmodSync);
      fs.lchmodSync = chmodFixSync(fs.lchmodSync);
      fs.stat = statFix(fs.stat);
      fs.fstat = statFix(fs.fstat);
      fs.lstat = statFix(fs.lstat);
      fs.statSync = statFixSync(fs.statSync);
      fs.fstatSync = statFixSync(fs.fstatSync);
      fs.lstatSync = statFixSync(fs.lstatSync);
      if (fs.chmod && !fs.lchmod) {
        fs.lchmod = function(path, mode, cb) {
          if (cb) process.nextTick(cb);
        };
        fs.lchmodSync = function() {
        };
      }
      if (fs.chown && !fs.lchown) {
        fs.lchown = function(path, uid, gid, cb) {
          if (cb) process.nextTick(cb);
        };
        fs.lchownSync = function() {
        };
      }
      if (platform === "win32") {
        fs.rename = typeof fs.rename !== "function" ? fs.rename : (function(fs$rename) {
          function rename(from, to, cb) {
            var start = Date.now();
            var backoff = 0;
            fs$rename(from, to, function CB(er) {
              if (er && (er.code === "EACCES" || er.code === "EPERM" || er.code === "EBUSY") && Date.now() - start < 6e4) {
                setTimeout(function() {
                  fs.stat(to, function(stater, st) {
                    if (stater && stater.code === "ENOENT")
                      fs$rename(from, to, CB);
                    else
                      cb(er);
                  });
                }, backoff);
                if (backoff < 100)
                  backoff += 10;
                return;
              }
              if (cb) cb(er);
            });
          }
          if (Object.setPrototypeOf) Object.setPrototypeOf(rename, fs$rename);
          return rename;
        })(fs.rename);
      }
      fs.read = typeof fs.read !== "function" ? fs.read : (function(fs$read) {
        function read(fd, buffer, offset, length, position, callback_) {
          var callback;
          if (callback_ && typeof callback_ === "function") {
            var eagCounter = 0;
            callback = function(er, _, __) {
              if (er && er.code === "EAGAIN" && eagCounter < 10) {
                eagCounter++;
                return fs$read.call(fs, fd, buffer, offset, length, position, callback);
              }
              callback_.apply(this, arguments);
            };
          }
          return fs$read.call(fs, fd, buffer, offset, length, position, callback);
        }
        if (Object.setPrototypeOf) Object.setPrototypeOf(read, fs$read);
        return read;
      })(fs.read);
      fs.readSync = typeof fs.readSync !== "function" ? fs.readSync : /* @__PURE__ */ (function(fs$readSync) {
        return function(fd, buffer, offset, length, position) {
          var eagCounter = 0;
          while (true) {
            try {
              return fs$readSync.call(fs, fd, buffer, offset, length, position);
            } catch (er) {
              if (er.code === "EAGAIN" && eagCounter < 10) {
                eagCounter++;
                continue;
              }
              throw er;
            }
          }
        };
      })(fs.readSync);
      function patchLchmod(fs2) {
        fs2.lchmod = function(path, mode, callback) {
          fs2.open(
            path,
            constants3.O_WRONLY | constants3.O_SYMLINK,
            mode,
            function(err, fd) {
              if (err) {
                if (callback) callback(err);
                return;
              }
              fs2.fchmod(fd, mode, function(err2) {
                fs2.close(fd, function(err22) {
                  if (callback) callback(err2 || err22);
                });
              });
            }
          );
        };
        fs2.lchmodSync = function(path, mode) {
          var fd = fs2.openSync(path, constants3.O_WRONLY | constants3.O_SYMLINK, mode);
          var threw = true;
          var ret;
          try {
            ret = fs2.fchmodSync(fd, mode);
            threw = false;
          } finally {
            if (threw) {
              try {
                fs2.closeSync(fd);
              } catch (er) {
              }
            } else {
              fs2.closeSync(fd);
            }
          }
          return ret;
        };
      }
      function patchLutimes(fs2) {
        if (constants3.hasOwnProperty("O_SYMLINK") && fs2.futimes) {
          fs2.lutimes = function(path, at, mt, cb) {
            fs2.open(path, constants3.O_SYMLINK, function(er, fd) {
              if (er) {
                if (cb) cb(er);
                return;
              }
              fs2.futimes(fd, at, mt, function(er2) {
                fs2.close(fd, function(er22) {
                  if (cb) cb(er2 || er22);
                });
              });
            });
          };
          fs2.lutimesSync = function(path, at, mt) {
            var fd = fs2.openSync(path, constants3.O_SYMLINK);
            var ret;
            var threw = true;
            try {
              ret = fs2.futimesSync(fd, at, mt);
              threw = false;
            } finally {
              if (threw) {
                try {
                  fs2.closeSync(fd);
                } catch (er) {
                }
              } else {
                fs2.closeSync(fd);
              }
            }
            return ret;
          };
        } else if (fs2.futimes) {
          fs2.lutimes = function(_a2, _b, _c, cb) {
            if (cb) process.nextTick(cb);
          };
          fs2.lutimesSync = function() {
          };
        }
      }
      function chmodFix(orig) {
        if (!orig) return orig;
        return function(target, mode, cb) {
          return orig.call(fs, target, mode, function(er) {
            if (chownErOk(er)) er = null;
            if (cb) cb.apply(this, arguments);
          });
        };
      }
      function chmodFixSync(orig) {
        if (!orig) return orig;
        return function(target, mode) {
          try {
            return orig.call(fs, target, mode);
          } catch (er) {
            if (!chownErOk(er)) throw er;
          }
        };
      }
      function chownFix(orig) {
        if (!orig) return orig;
        return function(target, uid, gid, cb) {
          return orig.call(fs, target, uid, gid, function(er) {
            if (chownErOk(er)) er = null;
            if (cb) cb.apply(this, arguments);
          });
        };
      }
      function chownFixSync(orig) {
        if (!orig) return orig;
        return function(target, uid, gid) {
          try {
            return orig.call(fs, target, uid, gid);
          } catch (er) {
            if (!chownErOk(er)) throw er;
          }
        };
      }
      function statFix(orig) {
        if (!orig) return orig;
        return function(target, options, cb) {
          if (typeof options === "function") {
            cb = options;
            options = null;
          }
          function callback(er, stats) {
            if (stats) {
              if (stats.uid < 0) stats.uid += 4294967296;
              if (stats.gid < 0) stats.gid += 4294967296;
            }
            if (cb) cb.apply(this, arguments);
          }
          return options ? orig.call(fs, target, options, callback) : orig.call(fs, target, callback);
        };
      }
      function statFixSync(orig) {
        if (!orig) return orig;
        return function(target, options) {
          var stats = options ? orig.call(fs, target, options) : orig.call(fs, target);
          if (stats) {
            if (stats.uid < 0) stats.uid += 4294967296;
            if (stats.gid < 0) stats.gid += 4294967296;
          }
          return stats;
        };
      }
      function chownErOk(er) {
        if (!er)
          return true;
        if (er.code === "ENOSYS")
          return true;
        var nonroot = !process.getuid || process.getuid() !== 0;
        if (nonroot) {
          if (er.code === "EINVAL" || er.code === "EPERM")
            return true;
        }
        return false;
      }
    }
  }
});

// node_modules/graceful-fs/legacy-streams.js
var require_legacy_streams = __commonJS({
  "node_modules/graceful-fs/legacy-streams.js"(exports, module) {
    var Stream = __require("stream").Stream;
    module.exports = legacy;
    function legacy(fs) {
      return {
        ReadStream,
        WriteStream
      };
      function ReadStream(path, options) {
        if (!(this instanceof ReadStream)) return new ReadStream(path, options);
        Stream.call(this);
        var self = this;
        this.path = path;
        this.fd = null;
        this.readable = true;
        this.paused = false;
        this.flags = "r";
        this.mode = 438;
        this.bufferSize = 64 * 1024;
        options = options || {};
        var keys = Object.keys(options);
        for (var index = 0, length = keys.length; index < length; index++) {
          var key = keys[index];
          this[key] = options[key];
        }
        if (this.encoding) this.setEncoding(this.encoding);
        if (this.start !== void 0) {
          if ("number" !== typeof this.start) {
            throw TypeError("start must be a Number");
          }
          if (this.end === void 0) {
            this.end = Infinity;
          } else if ("number" !== typeof this.end) {
            throw TypeError("end must be a Number");
          }
          if (this.start > this.end) {
            throw new Error("start must be <= end");
          }
          this.pos = this.start;
        }
        if (this.fd !== null) {
          process.nextTick(function() {
            self._read();
          });
          return;
        }
        fs.open(this.path, this.flags, this.mode, function(err, fd) {
          if (err) {
            self.emit("error", err);
            self.readable = false;
            return;
          }
          self.fd = fd;
          self.emit("open", fd);
          self._read();
        });
      }
      function WriteStream(path, options) {
        if (!(this instanceof WriteStream)) return new WriteStream(path, options);
        Stream.call(this);
        this.path = path;
        this.fd = null;
        this.writable = true;
        this.flags = "w";
        this.encoding = "binary";
        this.mode = 438;
        this.bytesWritten = 0;
        options = options || {};
        var keys = Object.keys(options);
        for (var index = 0, length = keys.length; index < length; index++) {
          var key = keys[index];
          this[key] = options[key];
        }
        if (this.start !== void 0) {
          if ("number" !== typeof this.start) {
            throw TypeError("start must be a Number");
          }
          if (this.start < 0) {
            throw new Error("start must be >= zero");
          }
          this.pos = this.start;
        }
        this.busy = false;
        this._queue = [];
        if (this.fd === null) {
          this._open = fs.open;
          this._queue.push([this._open, this.path, this.flags, this.mode, void 0]);
          this.flush();
        }
      }
    }
  }
});

// node_modules/graceful-fs/clone.js
var require_clone = __commonJS({
  "node_modules/graceful-fs/clone.js"(exports, module) {
    "use strict";
    module.exports = clone2;
    var getPrototypeOf = Object.getPrototypeOf || function(obj) {
      return obj.__proto__;
    };
    function clone2(obj) {
      if (obj === null || typeof obj !== "object")
        return obj;
      if (obj instanceof Object)
        var copy = { __proto__: getPrototypeOf(obj) };
      else
        var copy = /* @__PURE__ */ Object.create(null);
      Object.getOwnPropertyNames(obj).forEach(function(key) {
        Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(obj, key));
      });
      return copy;
    }
  }
});

// node_modules/graceful-fs/graceful-fs.js
var require_graceful_fs = __commonJS({
  "node_modules/graceful-fs/graceful-fs.js"(exports, module) {
    var fs = __require("fs");
    var polyfills = require_polyfills();
    var legacy = require_legacy_streams();
    var clone2 = require_clone();
    var util = __require("util");
    var gracefulQueue;
    var previousSymbol;
    if (typeof Symbol === "function" && typeof Symbol.for === "function") {
      gracefulQueue = /* @__PURE__ */ Symbol.for("graceful-fs.queue");
      previousSymbol = /* @__PURE__ */ Symbol.for("graceful-fs.previous");
    } else {
      gracefulQueue = "___graceful-fs.queue";
      previousSymbol = "___graceful-fs.previous";
    }
    function noop() {
    }
    function publishQueue(context, queue2) {
      Object.defineProperty(context, gracefulQueue, {
        get: function() {
          return queue2;
        }
      });
    }
    var debug = noop;
    if (util.debuglog)
      debug = util.debuglog("gfs4");
    else if (/\bgfs4\b/i.test(process.env.NODE_DEBUG || ""))
      debug = function() {
        var m = util.format.apply(util, arguments);
        m = "GFS4: " + m.split(/\n/).join("\nGFS4: ");
        console.error(m);
      };
    if (!fs[gracefulQueue]) {
      queue = global[gracefulQueue] || [];
      publishQueue(fs, queue);
      fs.close = (function(fs$close) {
        function close(fd, cb) {
          return fs$close.call(fs, fd, function(err) {
            if (!err) {
              resetQueue();
            }
            if (typeof cb === "function")
              cb.apply(this, arguments);
          });
        }
        Object.defineProperty(close, previousSymbol, {
          value: fs$close
        });
        return close;
      })(fs.close);
      fs.closeSync = (function(fs$closeSync) {
        function closeSync2(fd) {
          fs$closeSync.apply(fs, arguments);
          resetQueue();
        }
        Object.defineProperty(closeSync2, previousSymbol, {
          value: fs$closeSync
        });
        return closeSync2;
      })(fs.closeSync);
      if (/\bgfs4\b/i.test(process.env.NODE_DEBUG || "")) {
        process.on("exit", function() {
          debug(fs[gracefulQueue]);
          __require("assert").equal(fs[gracefulQueue].length, 0);
        });
      }
    }
    var queue;
    if (!global[gracefulQueue]) {
      publishQueue(global, fs[gracefulQueue]);
    }
    module.exports = patch(clone2(fs));
    if (process.env.TEST_GRACEFUL_FS_GLOBAL_PATCH && !fs.__patched) {
      module.exports = patch(fs);
      fs.__patched = true;
    }
    function patch(fs2) {
      polyfills(fs2);
      fs2.gracefulify = patch;
      fs2.createReadStream = createReadStream;
      fs2.createWriteStream = createWriteStream;
      var fs$readFile = fs2.readFile;
      fs2.readFile = readFile;
      function readFile(path, options, cb) {
        if (typeof options === "function")
          cb = options, options = null;
        return go$readFile(path, options, cb);
        function go$readFile(path2, options2, cb2, startTime) {
          return fs$readFile(path2, options2, function(err) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([go$readFile, [path2, options2, cb2], err, startTime || Date.now(), Date.now()]);
            else {
              if (typeof cb2 === "function")
                cb2.apply(this, arguments);
            }
          });
        }
      }
      var fs$writeFile = fs2.writeFile;
      fs2.writeFile = writeFile;
      function writeFile(path, data, options, cb) {
        if (typeof options === "function")
          cb = options, options = null;
        return go$writeFile(path, data, options, cb);
        function go$writeFile(path2, data2, options2, cb2, startTime) {
          return fs$writeFile(path2, data2, options2, function(err) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([go$writeFile, [path2, data2, options2, cb2], err, startTime || Date.now(), Date.now()]);
            else {
              if (typeof cb2 === "function")
                cb2.apply(this, arguments);
            }
          });
        }
      }
      var fs$appendFile = fs2.appendFile;
      if (fs$appendFile)
        fs2.appendFile = appendFile;
      function appendFile(path, data, options, cb) {
        if (typeof options === "function")
          cb = options, options = null;
        return go$appendFile(path, data, options, cb);
        function go$appendFile(path2, data2, options2, cb2, startTime) {
          return fs$appendFile(path2, data2, options2, function(err) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([go$appendFile, [path2, data2, options2, cb2], err, startTime || Date.now(), Date.now()]);
            else {
              if (typeof cb2 === "function")
                cb2.apply(this, arguments);
            }
          });
        }
      }
      var fs$copyFile = fs2.copyFile;
      if (fs$copyFile)
        fs2.copyFile = copyFile;
      function copyFile(src, dest, flags, cb) {
        if (typeof flags === "function") {
          cb = flags;
          flags = 0;
        }
        return go$copyFile(src, dest, flags, cb);
        function go$copyFile(src2, dest2, flags2, cb2, startTime) {
          return fs$copyFile(src2, dest2, flags2, function(err) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([go$copyFile, [src2, dest2, flags2, cb2], err, startTime || Date.now(), Date.now()]);
            else {
              if (typeof cb2 === "function")
                cb2.apply(this, arguments);
            }
          });
        }
      }
      var fs$readdir = fs2.readdir;
      fs2.readdir = readdir;
      var noReaddirOptionVersions = /^v[0-5]\./;
      function readdir(path, options, cb) {
        if (typeof options === "function")
          cb = options, options = null;
        var go$readdir = noReaddirOptionVersions.test(process.version) ? function go$readdir2(path2, options2, cb2, startTime) {
          return fs$readdir(path2, fs$readdirCallback(
            path2,
            options2,
            cb2,
            startTime
          ));
        } : function go$readdir2(path2, options2, cb2, startTime) {
          return fs$readdir(path2, options2, fs$readdirCallback(
            path2,
            options2,
            cb2,
            startTime
          ));
        };
        return go$readdir(path, options, cb);
        function fs$readdirCallback(path2, options2, cb2, startTime) {
          return function(err, files) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([
                go$readdir,
                [path2, options2, cb2],
                err,
                startTime || Date.now(),
                Date.now()
              ]);
            else {
              if (files && files.sort)
                files.sort();
              if (typeof cb2 === "function")
                cb2.call(this, err, files);
            }
          };
        }
      }
      if (process.version.substr(0, 4) === "v0.8") {
        var legStreams = legacy(fs2);
        ReadStream = legStreams.ReadStream;
        WriteStream = legStreams.WriteStream;
      }
      var fs$ReadStream = fs2.ReadStream;
      if (fs$ReadStream) {
        ReadStream.prototype = Object.create(fs$ReadStream.prototype);
        ReadStream.prototype.open = ReadStream$open;
      }
      var fs$WriteStream = fs2.WriteStream;
      if (fs$WriteStream) {
        WriteStream.prototype = Object.create(fs$WriteStream.prototype);
        WriteStream.prototype.open = WriteStream$open;
      }
      Object.defineProperty(fs2, "ReadStream", {
        get: function() {
          return ReadStream;
        },
        set: function(val) {
          ReadStream = val;
        },
        enumerable: true,
        configurable: true
      });
      Object.defineProperty(fs2, "WriteStream", {
        get: function() {
          return WriteStream;
        },
        set: function(val) {
          WriteStream = val;
        },
        enumerable: true,
        configurable: true
      });
      var FileReadStream = ReadStream;
      Object.defineProperty(fs2, "FileReadStream", {
        get: function() {
          return FileReadStream;
        },
        set: function(val) {
          FileReadStream = val;
        },
        enumerable: true,
        configurable: true
      });
      var FileWriteStream = WriteStream;
      Object.defineProperty(fs2, "FileWriteStream", {
        get: function() {
          return FileWriteStream;
        },
        set: function(val) {
          FileWriteStream = val;
        },
        enumerable: true,
        configurable: true
      });
      function ReadStream(path, options) {
        if (this instanceof ReadStream)
          return fs$ReadStream.apply(this, arguments), this;
        else
          return ReadStream.apply(Object.create(ReadStream.prototype), arguments);
      }
      function ReadStream$open() {
        var that = this;
        open(that.path, that.flags, that.mode, function(err, fd) {
          if (err) {
            if (that.autoClose)
              that.destroy();
            that.emit("error", err);
          } else {
            that.fd = fd;
            that.emit("open", fd);
            that.read();
          }
        });
      }
      function WriteStream(path, options) {
        if (this instanceof WriteStream)
          return fs$WriteStream.apply(this, arguments), this;
        else
          return WriteStream.apply(Object.create(WriteStream.prototype), arguments);
      }
      function WriteStream$open() {
        var that = this;
        open(that.path, that.flags, that.mode, function(err, fd) {
          if (err) {
            that.destroy();
            that.emit("error", err);
          } else {
            that.fd = fd;
            that.emit("open", fd);
          }
        });
      }
      function createReadStream(path, options) {
        return new fs2.ReadStream(path, options);
      }
      function createWriteStream(path, options) {
        return new fs2.WriteStream(path, options);
      }
      var fs$open = fs2.open;
      fs2.open = open;
      function open(path, flags, mode, cb) {
        if (typeof mode === "function")
          cb = mode, mode = null;
        return go$open(path, flags, mode, cb);
        function go$open(path2, flags2, mode2, cb2, startTime) {
          return fs$open(path2, flags2, mode2, function(err, fd) {
            if (err && (err.code === "EMFILE" || err.code === "ENFILE"))
              enqueue([go$open, [path2, flags2, mode2, cb2], err, startTime || Date.now(), Date.now()]);
            else {
              if (typeof cb2 === "function")
                cb2.apply(this, arguments);
            }
          });
        }
      }
      return fs2;
    }
    function enqueue(elem) {
      debug("ENQUEUE", elem[0].name, elem[1]);
      fs[gracefulQueue].push(elem);
      retry();
    }
    var retryTimer;
    function resetQueue() {
      var now = Date.now();
      for (var i = 0; i < fs[gracefulQueue].length; ++i) {
        if (fs[gracefulQueue][i].length > 2) {
          fs[gracefulQueue][i][3] = now;
          fs[gracefulQueue][i][4] = now;
        }
      }
      retry();
    }
    function retry() {
      clearTimeout(retryTimer);
      retryTimer = void 0;
      if (fs[gracefulQueue].length === 0)
        return;
      var elem = fs[gracefulQueue].shift();
      var fn = elem[0];
      var args = elem[1];
      var err = elem[2];
      var startTime = elem[3];
      var lastTime = elem[4];
      if (startTime === void 0) {
        debug("RETRY", fn.name, args);
        fn.apply(null, args);
      } else if (Date.now() - startTime >= 6e4) {
        debug("TIMEOUT", fn.name, args);
        var cb = args.pop();
        if (typeof cb === "function")
          cb.call(null, err);
      } else {
        var sinceAttempt = Date.now() - lastTime;
        var sinceStart = Math.max(lastTime - startTime, 1);
        var desiredDelay = Math.min(sinceStart * 1.2, 100);
        if (sinceAttempt >= desiredDelay) {
          debug("RETRY", fn.name, args);
          fn.apply(null, args.concat([startTime]));
        } else {
          fs[gracefulQueue].push(elem);
        }
      }
      if (retryTimer === void 0) {
        retryTimer = setTimeout(retry, 0);
      }
    }
  }
});

// node_modules/retry/lib/retry_operation.js
var require_retry_operation = __commonJS({
  "node_modules/retry/lib/retry_operation.js"(exports, module) {
    function RetryOperation(timeouts, options) {
      if (typeof options === "boolean") {
        options = { forever: options };
      }
      this._originalTimeouts = JSON.parse(JSON.stringify(timeouts));
      this._timeouts = timeouts;
      this._options = options || {};
      this._maxRetryTime = options && options.maxRetryTime || Infinity;
      this._fn = null;
      this._errors = [];
      this._attempts = 1;
      this._operationTimeout = null;
      this._operationTimeoutCb = null;
      this._timeout = null;
      this._operationStart = null;
      if (this._options.forever) {
        this._cachedTimeouts = this._timeouts.slice(0);
      }
    }
    module.exports = RetryOperation;
    RetryOperation.prototype.reset = function() {
      this._attempts = 1;
      this._timeouts = this._originalTimeouts;
    };
    RetryOperation.prototype.stop = function() {
      if (this._timeout) {
        clearTimeout(this._timeout);
      }
      this._timeouts = [];
      this._cachedTimeouts = null;
    };
    RetryOperation.prototype.retry = function(err) {
      if (this._timeout) {
        clearTimeout(this._timeout);
      }
      if (!err) {
        return false;
      }
      var currentTime = (/* @__PURE__ */ new Date()).getTime();
      if (err && currentTime - this._operationStart >= this._maxRetryTime) {
        this._errors.unshift(new Error("RetryOperation timeout occurred"));
        return false;
      }
      this._errors.push(err);
      var timeout = this._timeouts.shift();
      if (timeout === void 0) {
        if (this._cachedTimeouts) {
          this._errors.splice(this._errors.length - 1, this._errors.length);
          this._timeouts = this._cachedTimeouts.slice(0);
          timeout = this._timeouts.shift();
        } else {
          return false;
        }
      }
      var self = this;
      var timer = setTimeout(function() {
        self._attempts++;
        if (self._operationTimeoutCb) {
          self._timeout = setTimeout(function() {
            self._operationTimeoutCb(self._attempts);
          }, self._operationTimeout);
          if (self._options.unref) {
            self._timeout.unref();
          }
        }
        self._fn(self._attempts);
      }, timeout);
      if (this._options.unref) {
        timer.unref();
      }
      return true;
    };
    RetryOperation.prototype.attempt = function(fn, timeoutOps) {
      this._fn = fn;
      if (timeoutOps) {
        if (timeoutOps.timeout) {
          this._operationTimeout = timeoutOps.timeout;
        }
        if (timeoutOps.cb) {
          this._operationTimeoutCb = timeoutOps.cb;
        }
      }
      var self = this;
      if (this._operationTimeoutCb) {
        this._timeout = setTimeout(function() {
          self._operationTimeoutCb();
        }, self._operationTimeout);
      }
      this._operationStart = (/* @__PURE__ */ new Date()).getTime();
      this._fn(this._attempts);
    };
    RetryOperation.prototype.try = function(fn) {
      console.log("Using RetryOperation.try() is deprecated");
      this.attempt(fn);
    };
    RetryOperation.prototype.start = function(fn) {
      console.log("Using RetryOperation.start() is deprecated");
      this.attempt(fn);
    };
    RetryOperation.prototype.start = RetryOperation.prototype.try;
    RetryOperation.prototype.errors = function() {
      return this._errors;
    };
    RetryOperation.prototype.attempts = function() {
      return this._attempts;
    };
    RetryOperation.prototype.mainError = function() {
      if (this._errors.length === 0) {
        return null;
      }
      var counts = {};
      var mainError = null;
      var mainErrorCount = 0;
      for (var i = 0; i < this._errors.length; i++) {
        var error = this._errors[i];
        var message = error.message;
        var count = (counts[message] || 0) + 1;
        counts[message] = count;
        if (count >= mainErrorCount) {
          mainError = error;
          mainErrorCount = count;
        }
      }
      return mainError;
    };
  }
});

// node_modules/retry/lib/retry.js
var require_retry = __commonJS({
  "node_modules/retry/lib/retry.js"(exports) {
    var RetryOperation = require_retry_operation();
    exports.operation = function(options) {
      var timeouts = exports.timeouts(options);
      return new RetryOperation(timeouts, {
        forever: options && options.forever,
        unref: options && options.unref,
        maxRetryTime: options && options.maxRetryTime
      });
    };
    exports.timeouts = function(options) {
      if (options instanceof Array) {
        return [].concat(options);
      }
      var opts = {
        retries: 10,
        factor: 2,
        minTimeout: 1 * 1e3,
        maxTimeout: Infinity,
        randomize: false
      };
      for (var key in options) {
        opts[key] = options[key];
      }
      if (opts.minTimeout > opts.maxTimeout) {
        throw new Error("minTimeout is greater than maxTimeout");
      }
      var timeouts = [];
      for (var i = 0; i < opts.retries; i++) {
        timeouts.push(this.createTimeout(i, opts));
      }
      if (options && options.forever && !timeouts.length) {
        timeouts.push(this.createTimeout(i, opts));
      }
      timeouts.sort(function(a, b) {
        return a - b;
      });
      return timeouts;
    };
    exports.createTimeout = function(attempt, opts) {
      var random = opts.randomize ? Math.random() + 1 : 1;
      var timeout = Math.round(random * opts.minTimeout * Math.pow(opts.factor, attempt));
      timeout = Math.min(timeout, opts.maxTimeout);
      return timeout;
    };
    exports.wrap = function(obj, options, methods) {
      if (options instanceof Array) {
        methods = options;
        options = null;
      }
      if (!methods) {
        methods = [];
        for (var key in obj) {
          if (typeof obj[key] === "function") {
            methods.push(key);
          }
        }
      }
      for (var i = 0; i < methods.length; i++) {
        var method = methods[i];
        var original = obj[method];
        obj[method] = function retryWrapper(original2) {
          var op = exports.operation(options);
          var args = Array.prototype.slice.call(arguments, 1);
          var callback = args.pop();
          args.push(function(err) {
            if (op.retry(err)) {
              return;
            }
            if (err) {
              arguments[0] = op.mainError();
            }
            callback.apply(this, arguments);
          });
          op.attempt(function() {
            original2.apply(obj, args);
          });
        }.bind(obj, original);
        obj[method].options = options;
      }
    };
  }
});

// node_modules/retry/index.js
var require_retry2 = __commonJS({
  "node_modules/retry/index.js"(exports, module) {
    module.exports = require_retry();
  }
});

// node_modules/signal-exit/signals.js
var require_signals = __commonJS({
  "node_modules/signal-exit/signals.js"(exports, module) {
    module.exports = [
      "SIGABRT",
      "SIGALRM",
      "SIGHUP",
      "SIGINT",
      "SIGTERM"
    ];
    if (process.platform !== "win32") {
      module.exports.push(
        "SIGVTALRM",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGUSR2",
        "SIGTRAP",
        "SIGSYS",
        "SIGQUIT",
        "SIGIOT"
        // should detect profiler and enable/disable accordingly.
        // see #21
        // 'SIGPROF'
      );
    }
    if (process.platform === "linux") {
      module.exports.push(
        "SIGIO",
        "SIGPOLL",
        "SIGPWR",
        "SIGSTKFLT",
        "SIGUNUSED"
      );
    }
  }
});

// node_modules/signal-exit/index.js
var require_signal_exit = __commonJS({
  "node_modules/signal-exit/index.js"(exports, module) {
    var process2 = global.process;
    var processOk = function(process3) {
      return process3 && typeof process3 === "object" && typeof process3.removeListener === "function" && typeof process3.emit === "function" && typeof process3.reallyExit === "function" && typeof process3.listeners === "function" && typeof process3.kill === "function" && typeof process3.pid === "number" && typeof process3.on === "function";
    };
    if (!processOk(process2)) {
      module.exports = function() {
        return function() {
        };
      };
    } else {
      assert = __require("assert");
      signals = require_signals();
      isWin = /^win/i.test(process2.platform);
      EE = __require("events");
      if (typeof EE !== "function") {
        EE = EE.EventEmitter;
      }
      if (process2.__signal_exit_emitter__) {
        emitter = process2.__signal_exit_emitter__;
      } else {
        emitter = process2.__signal_exit_emitter__ = new EE();
        emitter.count = 0;
        emitter.emitted = {};
      }
      if (!emitter.infinite) {
        emitter.setMaxListeners(Infinity);
        emitter.infinite = true;
      }
      module.exports = function(cb, opts) {
        if (!processOk(global.process)) {
          return function() {
          };
        }
        assert.equal(typeof cb, "function", "a callback must be provided for exit handler");
        if (loaded === false) {
          load();
        }
        var ev = "exit";
        if (opts && opts.alwaysLast) {
          ev = "afterexit";
        }
        var remove = function() {
          emitter.removeListener(ev, cb);
          if (emitter.listeners("exit").length === 0 && emitter.listeners("afterexit").length === 0) {
            unload();
          }
        };
        emitter.on(ev, cb);
        return remove;
      };
      unload = function unload2() {
        if (!loaded || !processOk(global.process)) {
          return;
        }
        loaded = false;
        signals.forEach(function(sig) {
          try {
            process2.removeListener(sig, sigListeners[sig]);
          } catch (er) {
          }
        });
        process2.emit = originalProcessEmit;
        process2.reallyExit = originalProcessReallyExit;
        emitter.count -= 1;
      };
      module.exports.unload = unload;
      emit = function emit2(event, code, signal) {
        if (emitter.emitted[event]) {
          return;
        }
        emitter.emitted[event] = true;
        emitter.emit(event, code, signal);
      };
      sigListeners = {};
      signals.forEach(function(sig) {
        sigListeners[sig] = function listener() {
          if (!processOk(global.process)) {
            return;
          }
          var listeners = process2.listeners(sig);
          if (listeners.length === emitter.count) {
            unload();
            emit("exit", null, sig);
            emit("afterexit", null, sig);
            if (isWin && sig === "SIGHUP") {
              sig = "SIGINT";
            }
            process2.kill(process2.pid, sig);
          }
        };
      });
      module.exports.signals = function() {
        return signals;
      };
      loaded = false;
      load = function load2() {
        if (loaded || !processOk(global.process)) {
          return;
        }
        loaded = true;
        emitter.count += 1;
        signals = signals.filter(function(sig) {
          try {
            process2.on(sig, sigListeners[sig]);
            return true;
          } catch (er) {
            return false;
          }
        });
        process2.emit = processEmit;
        process2.reallyExit = processReallyExit;
      };
      module.exports.load = load;
      originalProcessReallyExit = process2.reallyExit;
      processReallyExit = function processReallyExit2(code) {
        if (!processOk(global.process)) {
          return;
        }
        process2.exitCode = code || /* istanbul ignore next */
        0;
        emit("exit", process2.exitCode, null);
        emit("afterexit", process2.exitCode, null);
        originalProcessReallyExit.call(process2, process2.exitCode);
      };
      originalProcessEmit = process2.emit;
      processEmit = function processEmit2(ev, arg) {
        if (ev === "exit" && processOk(global.process)) {
          if (arg !== void 0) {
            process2.exitCode = arg;
          }
          var ret = originalProcessEmit.apply(this, arguments);
          emit("exit", process2.exitCode, null);
          emit("afterexit", process2.exitCode, null);
          return ret;
        } else {
          return originalProcessEmit.apply(this, arguments);
        }
      };
    }
    var assert;
    var signals;
    var isWin;
    var EE;
    var emitter;
    var unload;
    var emit;
    var sigListeners;
    var loaded;
    var load;
    var originalProcessReallyExit;
    var processReallyExit;
    var originalProcessEmit;
    var processEmit;
  }
});

// node_modules/proper-lockfile/lib/mtime-precision.js
var require_mtime_precision = __commonJS({
  "node_modules/proper-lockfile/lib/mtime-precision.js"(exports, module) {
    "use strict";
    var cacheSymbol = /* @__PURE__ */ Symbol();
    function probe(file, fs, callback) {
      const cachedPrecision = fs[cacheSymbol];
      if (cachedPrecision) {
        return fs.stat(file, (err, stat) => {
          if (err) {
            return callback(err);
          }
          callback(null, stat.mtime, cachedPrecision);
        });
      }
      const mtime = new Date(Math.ceil(Date.now() / 1e3) * 1e3 + 5);
      fs.utimes(file, mtime, mtime, (err) => {
        if (err) {
          return callback(err);
        }
        fs.stat(file, (err2, stat) => {
          if (err2) {
            return callback(err2);
          }
          const precision = stat.mtime.getTime() % 1e3 === 0 ? "s" : "ms";
          Object.defineProperty(fs, cacheSymbol, { value: precision });
          callback(null, stat.mtime, precision);
        });
      });
    }
    function getMtime(precision) {
      let now = Date.now();
      if (precision === "s") {
        now = Math.ceil(now / 1e3) * 1e3;
      }
      return new Date(now);
    }
    module.exports.probe = probe;
    module.exports.getMtime = getMtime;
  }
});

// node_modules/proper-lockfile/lib/lockfile.js
var require_lockfile = __commonJS({
  "node_modules/proper-lockfile/lib/lockfile.js"(exports, module) {
    "use strict";
    var path = __require("path");
    var fs = require_graceful_fs();
    var retry = require_retry2();
    var onExit = require_signal_exit();
    var mtimePrecision = require_mtime_precision();
    var locks = {};
    function getLockFile(file, options) {
      return options.lockfilePath || `${file}.lock`;
    }
    function resolveCanonicalPath(file, options, callback) {
      if (!options.realpath) {
        return callback(null, path.resolve(file));
      }
      options.fs.realpath(file, callback);
    }
    function acquireLock(file, options, callback) {
      const lockfilePath = getLockFile(file, options);
      options.fs.mkdir(lockfilePath, (err) => {
        if (!err) {
          return mtimePrecision.probe(lockfilePath, options.fs, (err2, mtime, mtimePrecision2) => {
            if (err2) {
              options.fs.rmdir(lockfilePath, () => {
              });
              return callback(err2);
            }
            callback(null, mtime, mtimePrecision2);
          });
        }
        if (err.code !== "EEXIST") {
          return callback(err);
        }
        if (options.stale <= 0) {
          return callback(Object.assign(new Error("Lock file is already being held"), { code: "ELOCKED", file }));
        }
        options.fs.stat(lockfilePath, (err2, stat) => {
          if (err2) {
            if (err2.code === "ENOENT") {
              return acquireLock(file, { ...options, stale: 0 }, callback);
            }
            return callback(err2);
          }
          if (!isLockStale(stat, options)) {
            return callback(Object.assign(new Error("Lock file is already being held"), { code: "ELOCKED", file }));
          }
          removeLock(file, options, (err3) => {
            if (err3) {
              return callback(err3);
            }
            acquireLock(file, { ...options, stale: 0 }, callback);
          });
        });
      });
    }
    function isLockStale(stat, options) {
      return stat.mtime.getTime() < Date.now() - options.stale;
    }
    function removeLock(file, options, callback) {
      options.fs.rmdir(getLockFile(file, options), (err) => {
        if (err && err.code !== "ENOENT") {
          return callback(err);
        }
        callback();
      });
    }
    function updateLock(file, options) {
      const lock2 = locks[file];
      if (lock2.updateTimeout) {
        return;
      }
      lock2.updateDelay = lock2.updateDelay || options.update;
      lock2.updateTimeout = setTimeout(() => {
        lock2.updateTimeout = null;
        options.fs.stat(lock2.lockfilePath, (err, stat) => {
          const isOverThreshold = lock2.lastUpdate + options.stale < Date.now();
          if (err) {
            if (err.code === "ENOENT" || isOverThreshold) {
              return setLockAsCompromised(file, lock2, Object.assign(err, { code: "ECOMPROMISED" }));
            }
            lock2.updateDelay = 1e3;
            return updateLock(file, options);
          }
          const isMtimeOurs = lock2.mtime.getTime() === stat.mtime.getTime();
          if (!isMtimeOurs) {
            return setLockAsCompromised(
              file,
              lock2,
              Object.assign(
                new Error("Unable to update lock within the stale threshold"),
                { code: "ECOMPROMISED" }
              )
            );
          }
          const mtime = mtimePrecision.getMtime(lock2.mtimePrecision);
          options.fs.utimes(lock2.lockfilePath, mtime, mtime, (err2) => {
            const isOverThreshold2 = lock2.lastUpdate + options.stale < Date.now();
            if (lock2.released) {
              return;
            }
            if (err2) {
              if (err2.code === "ENOENT" || isOverThreshold2) {
                return setLockAsCompromised(file, lock2, Object.assign(err2, { code: "ECOMPROMISED" }));
              }
              lock2.updateDelay = 1e3;
              return updateLock(file, options);
            }
            lock2.mtime = mtime;
            lock2.lastUpdate = Date.now();
            lock2.updateDelay = null;
            updateLock(file, options);
          });
        });
      }, lock2.updateDelay);
      if (lock2.updateTimeout.unref) {
        lock2.updateTimeout.unref();
      }
    }
    function setLockAsCompromised(file, lock2, err) {
      lock2.released = true;
      if (lock2.updateTimeout) {
        clearTimeout(lock2.updateTimeout);
      }
      if (locks[file] === lock2) {
        delete locks[file];
      }
      lock2.options.onCompromised(err);
    }
    function lock(file, options, callback) {
      options = {
        stale: 1e4,
        update: null,
        realpath: true,
        retries: 0,
        fs,
        onCompromised: (err) => {
          throw err;
        },
        ...options
      };
      options.retries = options.retries || 0;
      options.retries = typeof options.retries === "number" ? { retries: options.retries } : options.retries;
      options.stale = Math.max(options.stale || 0, 2e3);
      options.update = options.update == null ? options.stale / 2 : options.update || 0;
      options.update = Math.max(Math.min(options.update, options.stale / 2), 1e3);
      resolveCanonicalPath(file, options, (err, file2) => {
        if (err) {
          return callback(err);
        }
        const operation = retry.operation(options.retries);
        operation.attempt(() => {
          acquireLock(file2, options, (err2, mtime, mtimePrecision2) => {
            if (operation.retry(err2)) {
              return;
            }
            if (err2) {
              return callback(operation.mainError());
            }
            const lock2 = locks[file2] = {
              lockfilePath: getLockFile(file2, options),
              mtime,
              mtimePrecision: mtimePrecision2,
              options,
              lastUpdate: Date.now()
            };
            updateLock(file2, options);
            callback(null, (releasedCallback) => {
              if (lock2.released) {
                return releasedCallback && releasedCallback(Object.assign(new Error("Lock is already released"), { code: "ERELEASED" }));
              }
              unlock(file2, { ...options, realpath: false }, releasedCallback);
            });
          });
        });
      });
    }
    function unlock(file, options, callback) {
      options = {
        fs,
        realpath: true,
        ...options
      };
      resolveCanonicalPath(file, options, (err, file2) => {
        if (err) {
          return callback(err);
        }
        const lock2 = locks[file2];
        if (!lock2) {
          return callback(Object.assign(new Error("Lock is not acquired/owned by you"), { code: "ENOTACQUIRED" }));
        }
        lock2.updateTimeout && clearTimeout(lock2.updateTimeout);
        lock2.released = true;
        delete locks[file2];
        removeLock(file2, options, callback);
      });
    }
    function check(file, options, callback) {
      options = {
        stale: 1e4,
        realpath: true,
        fs,
        ...options
      };
      options.stale = Math.max(options.stale || 0, 2e3);
      resolveCanonicalPath(file, options, (err, file2) => {
        if (err) {
          return callback(err);
        }
        options.fs.stat(getLockFile(file2, options), (err2, stat) => {
          if (err2) {
            return err2.code === "ENOENT" ? callback(null, false) : callback(err2);
          }
          return callback(null, !isLockStale(stat, options));
        });
      });
    }
    function getLocks() {
      return locks;
    }
    onExit(() => {
      for (const file in locks) {
        const options = locks[file].options;
        try {
          options.fs.rmdirSync(getLockFile(file, options));
        } catch (e) {
        }
      }
    });
    module.exports.lock = lock;
    module.exports.unlock = unlock;
    module.exports.check = check;
    module.exports.getLocks = getLocks;
  }
});

// node_modules/proper-lockfile/lib/adapter.js
var require_adapter = __commonJS({
  "node_modules/proper-lockfile/lib/adapter.js"(exports, module) {
    "use strict";
    var fs = require_graceful_fs();
    function createSyncFs(fs2) {
      const methods = ["mkdir", "realpath", "stat", "rmdir", "utimes"];
      const newFs = { ...fs2 };
      methods.forEach((method) => {
        newFs[method] = (...args) => {
          const callback = args.pop();
          let ret;
          try {
            ret = fs2[`${method}Sync`](...args);
          } catch (err) {
            return callback(err);
          }
          callback(null, ret);
        };
      });
      return newFs;
    }
    function toPromise(method) {
      return (...args) => new Promise((resolve4, reject) => {
        args.push((err, result) => {
          if (err) {
            reject(err);
          } else {
            resolve4(result);
          }
        });
        method(...args);
      });
    }
    function toSync(method) {
      return (...args) => {
        let err;
        let result;
        args.push((_err, _result) => {
          err = _err;
          result = _result;
        });
        method(...args);
        if (err) {
          throw err;
        }
        return result;
      };
    }
    function toSyncOptions(options) {
      options = { ...options };
      options.fs = createSyncFs(options.fs || fs);
      if (typeof options.retries === "number" && options.retries > 0 || options.retries && typeof options.retries.retries === "number" && options.retries.retries > 0) {
        throw Object.assign(new Error("Cannot use retries with the sync api"), { code: "ESYNC" });
      }
      return options;
    }
    module.exports = {
      toPromise,
      toSync,
      toSyncOptions
    };
  }
});

// node_modules/proper-lockfile/index.js
var require_proper_lockfile = __commonJS({
  "node_modules/proper-lockfile/index.js"(exports, module) {
    "use strict";
    var lockfile = require_lockfile();
    var { toPromise, toSync, toSyncOptions } = require_adapter();
    async function lock(file, options) {
      const release = await toPromise(lockfile.lock)(file, options);
      return toPromise(release);
    }
    function lockSync(file, options) {
      const release = toSync(lockfile.lock)(file, toSyncOptions(options));
      return toSync(release);
    }
    function unlock(file, options) {
      return toPromise(lockfile.unlock)(file, options);
    }
    function unlockSync(file, options) {
      return toSync(lockfile.unlock)(file, toSyncOptions(options));
    }
    function check(file, options) {
      return toPromise(lockfile.check)(file, options);
    }
    function checkSync(file, options) {
      return toSync(lockfile.check)(file, toSyncOptions(options));
    }
    module.exports = lock;
    module.exports.lock = lock;
    module.exports.unlock = unlock;
    module.exports.lockSync = lockSync;
    module.exports.unlockSync = unlockSync;
    module.exports.check = check;
    module.exports.checkSync = checkSync;
  }
});

// lib/cli/main.ts
import { dirname as dirname4, resolve as resolve3 } from "node:path";
import { fileURLToPath } from "node:url";

// lib/runtime/paths.ts
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
function configDir(env) {
  const fromEnv2 = env.CLAUDE_CONFIG_DIR;
  if (fromEnv2 !== void 0 && fromEnv2 !== "") return resolve(fromEnv2);
  return join(env.HOME && env.HOME !== "" ? env.HOME : homedir(), ".claude");
}
function dataDir(env) {
  const fromEnv2 = env.CTXL_HOME;
  if (fromEnv2 !== void 0 && fromEnv2 !== "") return resolve(fromEnv2);
  return join(configDir(env), "memory");
}
var MAX_NAME = 128;
function sanitizeName(raw) {
  let name = raw.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, MAX_NAME);
  if (name === "" || /^\.+$/.test(name)) name = `_${name}`.slice(0, MAX_NAME);
  return name;
}

// lib/cli/args.ts
var UsageError = class extends Error {
};
function parseArgs(argv, spec) {
  const positional = [];
  const flags = /* @__PURE__ */ new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? void 0 : eq);
    if (spec.booleans.includes(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (spec.values.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === void 0 || value === "") throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return { positional, flags };
}
var flagString = (p, name) => {
  const v = p.flags.get(name);
  return typeof v === "string" ? v : void 0;
};
var flagBool = (p, name) => p.flags.get(name) === true;

// lib/cli/doctor.ts
import { accessSync, constants as constants2 } from "node:fs";
import { join as join4 } from "node:path";

// node_modules/zod/v4/core/util.js
function getEnumValues(entries) {
  const numericValues = Object.values(entries).filter((v) => typeof v === "number");
  const values = Object.entries(entries).filter(([k, _]) => numericValues.indexOf(+k) === -1).map(([_, v]) => v);
  return values;
}
function jsonStringifyReplacer(_, value) {
  if (typeof value === "bigint")
    return value.toString();
  return value;
}
var Cached = class {
  constructor(getter) {
    this._getter = getter;
    this._value = void 0;
  }
  get value() {
    const getter = this._getter;
    if (getter !== void 0) {
      this._value = getter();
      this._getter = void 0;
    }
    return this._value;
  }
};
function cached(getter) {
  return new Cached(getter);
}
function cleanRegex(source) {
  const start = source.startsWith("^") ? 1 : 0;
  const end = source.endsWith("$") ? source.length - 1 : source.length;
  return source.slice(start, end);
}
function assignProp(target, prop, value) {
  Object.defineProperty(target, prop, {
    value,
    writable: true,
    enumerable: true,
    configurable: true
  });
}
var captureStackTrace = "captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => {
};
function isObject(data) {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}
var propertyKeyTypes = /* @__PURE__ */ new Set(["string", "number", "symbol"]);
function escapeRegex(str) {
  return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function clone(inst, def, params) {
  const cl = new inst._zod.constr(def ?? inst._zod.def);
  if (!def || params?.parent)
    cl._zod.parent = inst;
  return cl;
}
function normalizeParams(_params) {
  const params = _params;
  if (!params)
    return {};
  if (typeof params === "string")
    return { error: () => params };
  if (params?.message !== void 0) {
    if (params?.error !== void 0)
      throw new Error("Cannot specify both `message` and `error` params");
    params.error = params.message;
  }
  delete params.message;
  if (typeof params.error === "string")
    return { ...params, error: () => params.error };
  return params;
}
function optionalKeys(shape) {
  return Object.keys(shape).filter((k) => {
    return shape[k]._zod.optin !== void 0 && shape[k]._zod.optout === "optional";
  });
}
var NUMBER_FORMAT_RANGES = /* @__PURE__ */ (() => ({
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-34028234663852886e22, 34028234663852886e22],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE]
}))();
function aborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue !== true) {
      return true;
    }
  }
  return false;
}
function explicitlyAborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue === false) {
      return true;
    }
  }
  return false;
}
function prefixIssues(path, issues) {
  return issues.map((iss) => {
    var _a2;
    (_a2 = iss).path ?? (_a2.path = []);
    iss.path.unshift(path);
    return iss;
  });
}
function unwrapMessage(message) {
  return typeof message === "string" ? message : message?.message;
}
function sizeCaps(defChecks) {
  const caps = [];
  for (const ch of defChecks ?? []) {
    const d = ch._zod.def;
    if (!/_(length|size)$|_equals$/.test(d.check))
      break;
    const max = d.maximum ?? d.length ?? d.size;
    if (max >= 0)
      caps.push([max, ch]);
  }
  return caps;
}
function attachSchema(issues, start, inst) {
  var _a2;
  for (let i = start; i < issues.length; i++) {
    (_a2 = issues[i]).schema ?? (_a2.schema = inst);
  }
}
function finalizeIssue(iss, ctx, config2) {
  var _a2;
  const traits = iss.inst?._zod?.traits;
  if (traits?.has("$ZodType")) {
    if (traits.has("$ZodCheck"))
      (_a2 = iss).schema ?? (_a2.schema = iss.inst);
    else
      iss.schema = iss.inst;
  }
  const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : void 0;
  const message = iss.message ? iss.message : unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ?? unwrapMessage(schemaError?.(iss)) ?? unwrapMessage(ctx?.error?.(iss)) ?? unwrapMessage(config2.customError?.(iss)) ?? unwrapMessage(config2.localeError?.(iss)) ?? "Invalid input";
  const full = {};
  for (const k of Object.keys(iss)) {
    if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
      continue;
    full[k] = iss[k];
  }
  full.path ?? (full.path = []);
  full.message = message;
  if (ctx?.reportInput) {
    full.input = iss.input;
  }
  return full;
}
function members(proto, table) {
  for (const key in table) {
    const desc = Object.getOwnPropertyDescriptor(table, key);
    if (desc.get)
      Object.defineProperty(proto, key, { ...desc, enumerable: false });
    else
      defineBound(proto, key, desc.value);
  }
}
function own(inst, key, value, enumerable = true) {
  Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
  return value;
}
function hide(inst, key, value) {
  return own(inst, key, value, false);
}
function defineBound(proto, key, fn) {
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      return this == null ? fn : own(this, key, fn.bind(this));
    },
    set(value) {
      own(this, key, value);
    }
  });
}
function claim(inst, sentinel) {
  const proto = Object.getPrototypeOf(inst);
  return sentinel in proto ? void 0 : proto;
}
var installing;
var broke = false;
var breaker = {
  configurable: true,
  get() {
    broke = true;
    return void 0;
  }
};
function defineLazyInternal(inst, key, compute) {
  const proto = Object.getPrototypeOf(inst._zod);
  if (key in proto && installing !== inst._zod) {
    installing = void 0;
    return;
  }
  installing = inst._zod;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      Object.defineProperty(this, key, breaker);
      const outer = broke;
      broke = false;
      try {
        const value = compute(this);
        if (broke)
          delete this[key];
        else
          Object.defineProperty(this, key, { configurable: true, writable: true, value });
        broke = broke || outer;
        return value;
      } catch (err) {
        delete this[key];
        broke = broke || outer;
        throw err;
      }
    },
    set(value) {
      Object.defineProperty(this, key, { configurable: true, writable: true, value });
    }
  });
}
function installLazyProp(inst, key, make, enumerable) {
  const proto = claim(inst, key);
  if (!proto)
    return;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      const desc = { configurable: true, writable: true, enumerable, value: void 0 };
      Object.defineProperty(this, key, desc);
      desc.value = make(this);
      Object.defineProperty(this, key, desc);
      return desc.value;
    },
    set(value) {
      Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
    }
  });
}

// node_modules/zod/v4/core/core.js
var _a;
var _zodDesc = { value: void 0, enumerable: false };
var _E = "captureStackTrace" in Error ? Error : null;
function newError(Definition) {
  const E = _E;
  if (E) {
    const saved = E.stackTraceLimit;
    if (typeof saved === "number") {
      try {
        E.stackTraceLimit = 0;
      } catch {
        _E = null;
        return new Definition();
      }
      try {
        return new Definition();
      } finally {
        E.stackTraceLimit = saved;
      }
    }
  }
  return new Definition();
}
// @__NO_SIDE_EFFECTS__
function $constructor(name, initializer2, proto, params) {
  const zodProto = {};
  function Internals(def) {
    this.def = def;
    this.constr = _;
    this.traits = /* @__PURE__ */ new Set();
  }
  Internals.prototype = zodProto;
  const protoMembers = proto;
  const initialized = protoMembers && /* @__PURE__ */ new WeakSet();
  function init(inst, def) {
    if (!inst._zod) {
      _zodDesc.value = new Internals(def);
      try {
        Object.defineProperty(inst, "_zod", _zodDesc);
      } finally {
        _zodDesc.value = void 0;
      }
    } else if (inst._zod.traits.has(name)) {
      return;
    }
    inst._zod.traits.add(name);
    initializer2(inst, def);
    if (initialized) {
      const own2 = Object.getPrototypeOf(inst);
      const ctorProto = inst._zod.constr.prototype;
      let up = own2;
      while (up && up !== ctorProto)
        up = Object.getPrototypeOf(up);
      const target = up ?? own2;
      if (!initialized.has(target)) {
        initialized.add(target);
        members(target, protoMembers);
      }
    }
    const proto2 = _.prototype;
    for (const k in proto2) {
      if (!Object.prototype.hasOwnProperty.call(proto2, k))
        continue;
      if (!(k in inst)) {
        inst[k] = proto2[k].bind(inst);
      }
    }
  }
  const Parent = params?.Parent ?? Object;
  class Definition extends Parent {
  }
  Object.defineProperty(Definition, "name", { value: name });
  function _(def) {
    const inst = params?.Parent ? newError(Definition) : this;
    init(inst, def);
    const deferred = inst._zod.deferred;
    if (deferred) {
      for (const fn of deferred) {
        fn();
      }
      inst._zod.deferred = void 0;
    }
    const pp = globalThis.__zod_globalConfig?.postProcessor;
    if (pp)
      pp(inst);
    return inst;
  }
  Object.defineProperty(_, "init", { value: init });
  Object.defineProperty(_, Symbol.hasInstance, {
    value: (inst) => {
      if (params?.Parent && inst instanceof params.Parent)
        return true;
      return inst?._zod?.traits?.has(name);
    }
  });
  Object.defineProperty(_, "name", { value: name });
  return _;
}
var $ZodAsyncError = class extends Error {
  constructor() {
    super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
  }
};
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
var globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
  if (newConfig)
    Object.assign(globalConfig, newConfig);
  return globalConfig;
}

// node_modules/zod/v4/core/errors.js
function _getMessage() {
  const internals = this._zod;
  internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
  return internals.message;
}
function _setMessage(value) {
  this._zod.message = value;
}
var _messageDesc = {
  get: _getMessage,
  set: _setMessage,
  enumerable: true,
  configurable: true
};
var _issuesDesc = { value: void 0, enumerable: false };
var _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
var initializer = (inst, def) => {
  inst.name = "$ZodError";
  _issuesDesc.value = def;
  Object.defineProperty(inst, "issues", _issuesDesc);
  _issuesDesc.value = void 0;
  Object.defineProperty(inst, "message", _messageDesc);
  const proto = Object.getPrototypeOf(inst);
  if (!_installedToString.has(proto)) {
    _installedToString.add(proto);
    Object.defineProperty(proto, "toString", {
      configurable: true,
      enumerable: false,
      get() {
        const value = () => this.message;
        Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
        return value;
      },
      set(value) {
        Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
      }
    });
  }
};
var $ZodError = $constructor("$ZodError", initializer);
var $ZodRealError = $constructor("$ZodError", initializer, void 0, {
  Parent: Error
});

// node_modules/zod/v4/core/parse.js
var _parse = (_Err) => {
  const fn = (schema, value, _ctx, _params) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
      throw new $ZodAsyncError();
    }
    if (result.issues.length) {
      const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, _params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var parse = /* @__PURE__ */ _parse($ZodRealError);
var _parseAsync = (_Err) => {
  const fn = async (schema, value, _ctx, params) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
      result = await result;
    if (result.issues.length) {
      const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var parseAsync = /* @__PURE__ */ _parseAsync($ZodRealError);
var _safeParse = (_Err) => (schema, value, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
  const result = schema._zod.run({ value, issues: [] }, ctx);
  if (result instanceof Promise) {
    throw new $ZodAsyncError();
  }
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
var safeParse = /* @__PURE__ */ _safeParse($ZodRealError);
function failure(Err, issues, ctx) {
  let error;
  return {
    success: false,
    get error() {
      if (!error) {
        error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
        issues = void 0;
        ctx = void 0;
      }
      return error;
    },
    set error(e) {
      error = e;
      issues = void 0;
      ctx = void 0;
    }
  };
}
var _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
  let result = schema._zod.run({ value, issues: [] }, ctx);
  if (result instanceof Promise)
    result = await result;
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
var safeParseAsync = /* @__PURE__ */ _safeParseAsync($ZodRealError);

// node_modules/zod/v4/core/regexes.js
var anyString = /^[\s\S]{0,}$/;
var number = /^-?\d+(?:\.\d+)?$/;
var boolean = /^(?:true|false)$/i;

// node_modules/zod/v4/core/checks.js
var $ZodCheck = /* @__PURE__ */ $constructor("$ZodCheck", (inst, def) => {
  var _a2;
  inst._zod ?? (inst._zod = {});
  inst._zod.def = def;
  (_a2 = inst._zod).onattach ?? (_a2.onattach = []);
});
var numericOriginMap = {
  number: "number",
  bigint: "bigint",
  object: "date"
};
var $ZodCheckGreaterThan = /* @__PURE__ */ $constructor("$ZodCheckGreaterThan", (inst, def) => {
  $ZodCheck.init(inst, def);
  const origin = numericOriginMap[typeof def.value];
  inst._zod.check = (payload) => {
    if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
      return;
    }
    payload.issues.push({
      origin: numericOriginMap[typeof payload.value] ?? origin,
      code: "too_small",
      minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
      input: payload.value,
      inclusive: def.inclusive,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckNumberFormat = /* @__PURE__ */ $constructor("$ZodCheckNumberFormat", (inst, def) => {
  $ZodCheck.init(inst, def);
  def.format = def.format || "float64";
  const isInt = def.format?.includes("int");
  const origin = isInt ? "int" : "number";
  const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
  inst._zod.check = (payload) => {
    const input = payload.value;
    if (isInt) {
      if (!Number.isInteger(input)) {
        payload.issues.push({
          expected: origin,
          format: def.format,
          code: "invalid_type",
          continue: false,
          input,
          inst
        });
        return;
      }
      if (!Number.isSafeInteger(input)) {
        if (input > 0) {
          payload.issues.push({
            input,
            code: "too_big",
            maximum: Number.MAX_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        } else {
          payload.issues.push({
            input,
            code: "too_small",
            minimum: Number.MIN_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        }
        return;
      }
    }
    if (input < minimum) {
      payload.issues.push({
        origin: "number",
        input,
        code: "too_small",
        minimum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
    if (input > maximum) {
      payload.issues.push({
        origin: "number",
        input,
        code: "too_big",
        maximum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
  };
});

// node_modules/zod/v4/core/versions.js
var version = {
  major: 4,
  minor: 6,
  patch: 7
};

// node_modules/zod/v4/core/schemas.js
var $ZodType = /* @__PURE__ */ $constructor("$ZodType", (inst, def) => {
  var _a2;
  inst ?? (inst = {});
  inst._zod.def = def;
  inst._zod.bag = inst._zod.bag || {};
  inst._zod.version = version;
  const defChecks = inst._zod.def.checks;
  const checks = inst._zod.traits.has("$ZodCheck") ? [inst, ...defChecks ?? []] : defChecks?.length ? [...defChecks] : [];
  for (const ch of checks) {
    for (const fn of ch._zod.onattach) {
      fn(inst);
    }
  }
  if (checks.length === 0) {
    (_a2 = inst._zod).deferred ?? (_a2.deferred = []);
    inst._zod.deferred?.push(() => {
      inst._zod.run = inst._zod.parse;
    });
  } else {
    const runChecks = (payload, checks2, ctx) => {
      if (payload.memo)
        return payload;
      let isAborted = aborted(payload);
      let asyncResult;
      for (const ch of checks2) {
        if (ch._zod.def.when) {
          if (explicitlyAborted(payload))
            continue;
          const shouldRun = ch._zod.def.when(payload);
          if (!shouldRun)
            continue;
        } else if (isAborted) {
          continue;
        }
        const currLen = payload.issues.length;
        const _ = ch._zod.check(payload);
        if (_ instanceof Promise && ctx?.async === false) {
          throw new $ZodAsyncError();
        }
        if (asyncResult || _ instanceof Promise) {
          asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
            await _;
            const nextLen = payload.issues.length;
            if (nextLen === currLen)
              return;
            attachSchema(payload.issues, currLen, inst);
            if (!isAborted)
              isAborted = aborted(payload, currLen);
          });
        } else {
          const nextLen = payload.issues.length;
          if (nextLen === currLen)
            continue;
          attachSchema(payload.issues, currLen, inst);
          if (!isAborted)
            isAborted = aborted(payload, currLen);
        }
      }
      if (asyncResult) {
        return asyncResult.then(() => {
          return payload;
        });
      }
      return payload;
    };
    const handleCanaryResult = (canary, payload, ctx) => {
      if (aborted(canary)) {
        canary.aborted = true;
        return canary;
      }
      const checkResult = runChecks(payload, checks, ctx);
      if (checkResult instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return checkResult.then((checkResult2) => inst._zod.parse(checkResult2, ctx));
      }
      return inst._zod.parse(checkResult, ctx);
    };
    inst._zod.run = (payload, ctx) => {
      if (ctx.skipChecks) {
        return inst._zod.parse(payload, ctx);
      }
      if (ctx.direction === "backward") {
        const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
        if (canary instanceof Promise) {
          return canary.then((canary2) => {
            return handleCanaryResult(canary2, payload, ctx);
          });
        }
        return handleCanaryResult(canary, payload, ctx);
      }
      const result = inst._zod.parse(payload, ctx);
      if (result instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return result.then((result2) => runChecks(result2, checks, ctx));
      }
      return runChecks(result, checks, ctx);
    };
  }
}, {
  // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
  get "~standard"() {
    return hide(this, "~standard", standardProps(this));
  },
  set "~standard"(value) {
    own(this, "~standard", value);
  }
});
var toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
  const ctx = { async: true };
  return toStandardResult(await inst._zod.run({ value, issues: [] }, ctx), ctx);
}
function standardProps(inst) {
  return {
    validate: (value) => {
      const ctx = { async: false };
      try {
        const r = inst._zod.run({ value, issues: [] }, ctx);
        if (!(r instanceof Promise))
          return toStandardResult(r, ctx);
      } catch (_) {
      }
      return validateAsync(inst, value);
    },
    vendor: "zod",
    version: 1
  };
}
var $ZodString = /* @__PURE__ */ $constructor("$ZodString", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = def.pattern ?? anyString;
  inst._zod.parse = (payload, _) => {
    if (def.coerce)
      try {
        payload.value = String(payload.value);
      } catch (_2) {
      }
    if (typeof payload.value === "string")
      return payload;
    payload.issues.push({
      expected: "string",
      code: "invalid_type",
      input: payload.value,
      inst
    });
    return payload;
  };
});
var $ZodNumber = /* @__PURE__ */ $constructor("$ZodNumber", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = number;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Number(payload.value);
      } catch (_) {
      }
    const input = payload.value;
    if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
      return payload;
    }
    const received = typeof input === "number" ? Number.isNaN(input) ? "NaN" : !Number.isFinite(input) ? String(input) : void 0 : void 0;
    payload.issues.push({
      expected: "number",
      code: "invalid_type",
      input,
      inst,
      ...received ? { received } : {}
    });
    return payload;
  };
});
var $ZodNumberFormat = /* @__PURE__ */ $constructor("$ZodNumberFormat", (inst, def) => {
  $ZodCheckNumberFormat.init(inst, def);
  $ZodNumber.init(inst, def);
});
var $ZodBoolean = /* @__PURE__ */ $constructor("$ZodBoolean", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = boolean;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Boolean(payload.value);
      } catch (_) {
      }
    const input = payload.value;
    if (typeof input === "boolean")
      return payload;
    payload.issues.push({
      expected: "boolean",
      code: "invalid_type",
      input,
      inst
    });
    return payload;
  };
});
var $ZodUnknown = /* @__PURE__ */ $constructor("$ZodUnknown", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.parse = (payload) => payload;
});
function capSize(inst, size) {
  const caps = sizeCaps(inst._zod.def.checks);
  if (!caps.length)
    return;
  const cap = Math.min(...caps.map((c) => c[0]));
  const parse2 = inst._zod.parse;
  inst._zod.parse = (payload, ctx) => {
    const n = size(payload.value);
    if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
      for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
        if (n > max && ch._zod.def.when(payload)) {
          const start = payload.issues.length;
          ch._zod.check(payload);
          payload.issues[start].continue = false;
          attachSchema(payload.issues, start, inst);
          return payload;
        }
      }
    }
    return parse2(payload, ctx);
  };
}
var arraySize = (input) => Array.isArray(input) ? input.length : -1;
function handleArrayResult(result, final, index) {
  if (result.issues.length) {
    final.issues.push(...prefixIssues(index, result.issues));
  }
  final.value[index] = result.value;
}
var $ZodArray = /* @__PURE__ */ $constructor("$ZodArray", (inst, def) => {
  $ZodType.init(inst, def);
  const memo = globalConfig.memoizer;
  memo?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    const input = payload.value;
    if (!Array.isArray(input)) {
      payload.issues.push({
        expected: "array",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
    const proms = [];
    const abortEarly = ctx?.abortEarly;
    for (let i = 0; i < input.length; i++) {
      const item = input[i];
      const result = def.element._zod.run({
        value: item,
        issues: []
      }, ctx);
      if (result instanceof Promise) {
        proms.push(result.then((result2) => handleArrayResult(result2, payload, i)));
      } else {
        handleArrayResult(result, payload, i);
        if (abortEarly && result.issues.length !== 0 && aborted(result))
          break;
      }
    }
    if (proms.length) {
      return Promise.all(proms).then(() => payload);
    }
    return payload;
  };
  capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
  const isPresent = key in input;
  const isOptionalOut = optout === "optional";
  if (!isPresent && isOptionalOut && optin === "optional") {
    return;
  }
  if (result.issues.length) {
    if (optin !== void 0 && isOptionalOut && !isPresent) {
      return;
    }
    final.issues.push(...prefixIssues(key, result.issues));
  }
  if (!isPresent && optin === void 0) {
    if (!result.issues.length) {
      final.issues.push({
        code: "invalid_type",
        expected: "nonoptional",
        input: void 0,
        path: [key]
      });
    }
    return;
  }
  if (result.value === void 0) {
    if (isPresent || optin === "defaulted" && !isOptionalOut) {
      final.value[key] = void 0;
    }
  } else {
    final.value[key] = result.value;
  }
}
var NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
  const keys = Object.keys(def.shape);
  const ownSymbols = Object.getOwnPropertySymbols(def.shape);
  const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
  const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
  for (const k of allKeys) {
    if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
      throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
    }
  }
  const okeys = optionalKeys(def.shape);
  return {
    ...def,
    allKeys,
    symbolKeys,
    // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
    keySet: new Set(keys),
    numKeys: keys.length,
    optionalKeys: new Set(okeys)
  };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
  const unrecognized = [];
  const keySet = def.keySet;
  const _catchall = def.catchall._zod;
  const t = _catchall.def.type;
  const optin = _catchall.optin;
  const optout = _catchall.optout;
  let seen = 0;
  for (const key in input) {
    if (abortEarly && payload.issues.length !== seen) {
      if (aborted(payload, seen))
        break;
      seen = payload.issues.length;
    }
    if (keySet.has(key))
      continue;
    if (key === "__proto__") {
      if (t === "never")
        unrecognized.push(key);
      continue;
    }
    if (t === "never") {
      unrecognized.push(key);
      continue;
    }
    const r = _catchall.run({ value: input[key], issues: [] }, ctx);
    if (r instanceof Promise) {
      proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
    } else {
      handlePropertyResult(r, payload, key, input, optin, optout);
    }
  }
  if (unrecognized.length) {
    payload.issues.push({
      code: "unrecognized_keys",
      keys: unrecognized,
      input,
      inst,
      // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
      continue: true
    });
  }
  if (!proms.length)
    return payload;
  return Promise.all(proms).then(() => {
    return payload;
  });
}
var $ZodObject = /* @__PURE__ */ $constructor("$ZodObject", (inst, def) => {
  $ZodType.init(inst, def);
  const desc = Object.getOwnPropertyDescriptor(def, "shape");
  const sh = desc?.get ? desc.get.raw : def.shape ?? {};
  if (sh) {
    const get = () => {
      const newSh = { ...sh };
      Object.defineProperty(def, "shape", { value: newSh });
      get.raw = newSh;
      return newSh;
    };
    get.raw = sh;
    Object.defineProperty(def, "shape", { get });
  }
  const _normalized = cached(() => normalizeDef(def));
  defineLazyInternal(inst, "propValues", (zod) => {
    const shape = zod.def.shape;
    const propValues = {};
    for (const key in shape) {
      const field = shape[key]._zod;
      if (field.values) {
        if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
          assignProp(propValues, key, /* @__PURE__ */ new Set());
        }
        for (const v of field.values)
          propValues[key].add(v);
        if (field.optin !== void 0)
          propValues[key].add(void 0);
      }
    }
    return propValues;
  });
  const isObject2 = isObject;
  const catchall = def.catchall;
  let value;
  const memo = globalConfig.memoizer;
  memo?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    value ?? (value = _normalized.value);
    const input = payload.value;
    if (!isObject2(input)) {
      payload.issues.push({
        expected: "object",
        code: "invalid_type",
        input,
        inst
      });
      return payload;
    }
    payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
    const proms = [];
    const shape = value.shape;
    const abortEarly = ctx?.abortEarly;
    let seen = payload.issues.length;
    for (const key of value.allKeys) {
      if (abortEarly && payload.issues.length !== seen) {
        if (aborted(payload, seen))
          break;
        seen = payload.issues.length;
      }
      if (key === "__proto__")
        continue;
      const el = shape[key];
      const optin = el._zod.optin;
      const optout = el._zod.optout;
      const r = el._zod.run({ value: input[key], issues: [] }, ctx);
      if (r instanceof Promise) {
        proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
      } else {
        handlePropertyResult(r, payload, key, input, optin, optout);
      }
    }
    if (!catchall) {
      return proms.length ? Promise.all(proms).then(() => payload) : payload;
    }
    return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
  };
});
var $ZodEnum = /* @__PURE__ */ $constructor("$ZodEnum", (inst, def) => {
  $ZodType.init(inst, def);
  const values = getEnumValues(def.entries);
  const valuesSet = new Set(values);
  inst._zod.values = valuesSet;
  defineLazyInternal(inst, "pattern", (zod) => {
    const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
    return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input = payload.value;
    if (valuesSet.has(input)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values,
      input,
      inst
    });
    return payload;
  };
});
var $ZodLiteral = /* @__PURE__ */ $constructor("$ZodLiteral", (inst, def) => {
  $ZodType.init(inst, def);
  const values = new Set(def.values);
  inst._zod.values = values;
  defineLazyInternal(inst, "pattern", (zod) => {
    const vals = zod.def.values;
    return new RegExp(vals.length ? `^(${vals.map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o)).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input = payload.value;
    if (values.has(input)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values: def.values,
      input,
      inst
    });
    return payload;
  };
});
function handleOptionalResult(payload, result) {
  payload.value = result.issues.length ? void 0 : result.value;
  return payload;
}
var $ZodOptional = /* @__PURE__ */ $constructor("$ZodOptional", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
  inst._zod.optout = "optional";
  defineLazyInternal(inst, "values", (zod) => {
    const values = zod.def.innerType._zod.values;
    return values ? /* @__PURE__ */ new Set([...values, void 0]) : void 0;
  });
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === void 0) {
      if (def.innerType._zod.optin !== "defaulted")
        return payload;
      const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
      if (result instanceof Promise)
        return result.then((result2) => handleOptionalResult(payload, result2));
      return handleOptionalResult(payload, result);
    }
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodNullable = /* @__PURE__ */ $constructor("$ZodNullable", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
  defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : void 0;
  });
  defineLazyInternal(inst, "values", (zod) => {
    return zod.def.innerType._zod.values ? /* @__PURE__ */ new Set([...zod.def.innerType._zod.values, null]) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === null)
      return payload;
    return def.innerType._zod.run(payload, ctx);
  };
});

// node_modules/zod/v4/core/api.js
function snapshotChecks(def) {
  if (def.checks)
    def.checks = [...def.checks];
  return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
  return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
  return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
  return new Class({
    type: "number",
    check: "number_format",
    abort: false,
    format: "safeint",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
  return new Class({
    type: "boolean",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
  return new Class({
    type: "unknown"
  });
}
// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value,
    inclusive: false
  });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value,
    inclusive: true
  });
}
// @__NO_SIDE_EFFECTS__
function _positive(params) {
  return /* @__PURE__ */ _gt(0, params);
}
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
  return /* @__PURE__ */ _gte(0, params);
}

// node_modules/zod/v4/mini/schemas.js
var ZodMiniType = /* @__PURE__ */ $constructor("ZodMiniType", (inst, def) => {
  if (!inst._zod)
    throw new Error("Uninitialized schema in ZodMiniType.");
  $ZodType.init(inst, def);
  inst.def = def;
  inst.type = def.type;
}, {
  // `with` is an alias for `check`: the same function object, not a wrapper.
  get with() {
    return this.check;
  },
  set with(value) {
    own(this, "with", value);
  },
  parse(data, params) {
    return parse(this, data, params, { callee: this.parse });
  },
  parseAsync(data, params) {
    return parseAsync(this, data, params, { callee: this.parseAsync });
  },
  safeParse(data, params) {
    return safeParse(this, data, params);
  },
  safeParseAsync(data, params) {
    return safeParseAsync(this, data, params);
  },
  check(...checks) {
    const def = this.def;
    return this.clone({
      ...def,
      checks: [
        ...def.checks ?? [],
        ...checks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch)
      ]
    }, { parent: true });
  },
  clone(_def, params) {
    return clone(this, _def, params);
  },
  brand() {
    return this;
  },
  register(reg, meta2) {
    reg.add(this, meta2);
    return this;
  },
  apply(fn, ...args) {
    return args.length === 0 ? fn(this) : fn(this, ...args);
  }
});
var ZodMiniString = /* @__PURE__ */ $constructor("ZodMiniString", (inst, def) => {
  $ZodString.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function string2(params) {
  return _string(ZodMiniString, params);
}
var ZodMiniNumber = /* @__PURE__ */ $constructor("ZodMiniNumber", (inst, def) => {
  $ZodNumber.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function number2(params) {
  return _number(ZodMiniNumber, params);
}
var ZodMiniNumberFormat = /* @__PURE__ */ $constructor("ZodMiniNumberFormat", (inst, def) => {
  $ZodNumberFormat.init(inst, def);
  ZodMiniNumber.init(inst, def);
});
function int(params) {
  return _int(ZodMiniNumberFormat, params);
}
var ZodMiniBoolean = /* @__PURE__ */ $constructor("ZodMiniBoolean", (inst, def) => {
  $ZodBoolean.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function boolean2(params) {
  return _boolean(ZodMiniBoolean, params);
}
var ZodMiniUnknown = /* @__PURE__ */ $constructor("ZodMiniUnknown", (inst, def) => {
  $ZodUnknown.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function unknown() {
  return _unknown(ZodMiniUnknown);
}
var ZodMiniArray = /* @__PURE__ */ $constructor("ZodMiniArray", (inst, def) => {
  $ZodArray.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function array(element, params) {
  return new ZodMiniArray({
    type: "array",
    element,
    ...normalizeParams(params)
  });
}
var ZodMiniObject = /* @__PURE__ */ $constructor("ZodMiniObject", (inst, def) => {
  $ZodObject.init(inst, def);
  ZodMiniType.init(inst, def);
  installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
});
// @__NO_SIDE_EFFECTS__
function object(shape, params) {
  const def = {
    type: "object",
    shape: shape ?? {},
    ...normalizeParams(params)
  };
  return new ZodMiniObject(def);
}
// @__NO_SIDE_EFFECTS__
function looseObject(shape, params) {
  return new ZodMiniObject({
    type: "object",
    shape,
    catchall: /* @__PURE__ */ unknown(),
    ...normalizeParams(params)
  });
}
var ZodMiniEnum = /* @__PURE__ */ $constructor("ZodMiniEnum", (inst, def) => {
  $ZodEnum.init(inst, def);
  ZodMiniType.init(inst, def);
  inst.options = [...inst._zod.values];
});
// @__NO_SIDE_EFFECTS__
function _enum(values, params) {
  const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
  return new ZodMiniEnum({
    type: "enum",
    entries,
    ...normalizeParams(params)
  });
}
var ZodMiniLiteral = /* @__PURE__ */ $constructor("ZodMiniLiteral", (inst, def) => {
  $ZodLiteral.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function literal(value, params) {
  return new ZodMiniLiteral({
    type: "literal",
    values: Array.isArray(value) ? value : [value],
    ...normalizeParams(params)
  });
}
var ZodMiniOptional = /* @__PURE__ */ $constructor("ZodMiniOptional", (inst, def) => {
  $ZodOptional.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function optional(innerType) {
  return new ZodMiniOptional({
    type: "optional",
    innerType
  });
}
var ZodMiniNullable = /* @__PURE__ */ $constructor("ZodMiniNullable", (inst, def) => {
  $ZodNullable.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function nullable(innerType) {
  return new ZodMiniNullable({
    type: "nullable",
    innerType
  });
}

// lib/runtime/config.ts
var logLevel = _enum(["error", "warn", "info", "debug"]);
var positiveInt = number2().check(int(), _positive());
var nonNegativeInt = number2().check(int(), _nonnegative());
var configKeys = {
  disabled: {
    schema: boolean2(),
    default: false,
    env: "CTXL_DISABLE",
    doc: "Turn every hook into a no-op (the env var is checked first, before any file is read)."
  },
  logLevel: { schema: logLevel, default: "warn", env: "CTXL_LOG_LEVEL", doc: "Log level for `<data>/logs/ctxl.log`: error, warn, info, debug." },
  breakerFailures: {
    schema: positiveInt,
    default: 3,
    env: "CTXL_BREAKER_FAILURES",
    doc: "Consecutive internal failures of one hook before it pauses (circuit breaker)."
  },
  breakerCooldownSeconds: {
    schema: positiveInt,
    default: 300,
    env: "CTXL_BREAKER_COOLDOWN_SECONDS",
    doc: "How long a tripped hook skips its work before trying again."
  },
  windowTokens: {
    schema: nonNegativeInt,
    default: 0,
    env: "CTXL_WINDOW_TOKENS",
    doc: "Context window in tokens; 0 follows the model and Claude Code\u2019s own overrides."
  },
  sessionStartStatus: {
    schema: boolean2(),
    default: true,
    env: "CTXL_SESSION_START_STATUS",
    doc: "Inject the one-line status (phase, context use) at session start."
  }
};
var defaultConfig = Object.fromEntries(Object.entries(configKeys).map(([key, spec]) => [key, spec.default]));
function loadConfig(sources) {
  const problems = [];
  const layers = [
    ["user", parseFile(sources.userText, "user", problems)],
    ["project", parseFile(sources.projectText, "project", problems)],
    ["env", fromEnv(sources.env)]
  ];
  const config2 = { ...defaultConfig };
  for (const [source, layer] of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const spec = configKeys[key];
      if (spec === void 0) {
        problems.push({ key, source, message: `unknown key "${key}" ignored` });
        continue;
      }
      const result = spec.schema.safeParse(value);
      if (result.success) config2[key] = result.data;
      else
        problems.push({
          key,
          source,
          message: `invalid value ${JSON.stringify(value)} for "${key}" (${result.error.issues[0]?.message ?? "invalid"}); kept ${JSON.stringify(config2[key])}`
        });
    }
  }
  return { config: config2, problems };
}
function parseFile(text, source, problems) {
  if (text === void 0 || text.trim() === "") return {};
  try {
    const value = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const { $schema: _schema, version: _version, ...rest } = value;
      return rest;
    }
  } catch {
  }
  problems.push({ key: "*", source, message: `${source} config file is not a JSON object; ignored` });
  return {};
}
function fromEnv(env) {
  const out2 = {};
  for (const [key, spec] of Object.entries(configKeys)) {
    const raw = env[spec.env];
    if (raw === void 0 || raw === "") continue;
    out2[key] = coerce(raw, spec.default);
  }
  return out2;
}
function coerce(raw, like) {
  if (typeof like === "boolean") {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    return raw;
  }
  if (typeof like === "number") return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  return raw;
}

// lib/runtime/store.ts
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync
} from "node:fs";
import { dirname, join as join2, relative, resolve as resolve2, sep } from "node:path";
var LOCK_STALE_MS = 1e4;
var DIR_MODE = 448;
var FILE_MODE = 384;
function openStore(root2, log) {
  const absRoot = resolve2(root2);
  const path = (...segments) => join2(absRoot, ...segments.map(sanitizeName));
  const ensureParent = (file) => mkdirSync(dirname(file), { recursive: true, mode: DIR_MODE });
  return {
    root: absRoot,
    path,
    readJson(file, schema) {
      let text;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        if (error.code === "ENOENT") return { ok: false, reason: "missing" };
        return { ok: false, reason: "io", detail: error.message };
      }
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return { ok: false, reason: "corrupt", detail: error.message };
      }
      const result = schema.safeParse(parsed);
      if (!result.success) return { ok: false, reason: "invalid", detail: result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
      return { ok: true, value: result.data };
    },
    writeJson(file, value) {
      ensureParent(file);
      writeFileAtomic(file, `${JSON.stringify(value)}
`);
    },
    appendLine(file, record) {
      ensureParent(file);
      const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, FILE_MODE);
      try {
        writeSync(fd, `${JSON.stringify(record)}
`);
      } finally {
        closeSync(fd);
      }
    },
    readLines(file) {
      try {
        return readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
      } catch {
        return [];
      }
    },
    setAside(file, now) {
      const aside = `${file}.bad-${now.toISOString().replace(/[:.]/g, "-")}`;
      try {
        renameSync(file, aside);
        return aside;
      } catch {
        return void 0;
      }
    },
    async withLock(file, fn, options) {
      ensureParent(file);
      const waitMs = options?.waitMs ?? 2e3;
      let release;
      try {
        const { default: lockfile } = await Promise.resolve().then(() => __toESM(require_proper_lockfile(), 1));
        release = await lockfile.lock(file, {
          realpath: false,
          stale: LOCK_STALE_MS,
          update: LOCK_STALE_MS / 2,
          retries: { retries: Math.max(1, Math.ceil(waitMs / 50)), factor: 1, minTimeout: 25, maxTimeout: 50 },
          onCompromised: (error) => log.warn("lock compromised", { file, error: error.message })
        });
      } catch (error) {
        log.warn("lock busy, skipped", { file, error: error.message });
        return void 0;
      }
      try {
        return await fn();
      } finally {
        await release().catch(() => void 0);
      }
    }
  };
}
var tmpCounter = 0;
function writeFileAtomic(file, data, options) {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.${Date.now().toString(36)}.tmp`;
  const fd = openSync(tmp, "w", options?.mode ?? FILE_MODE);
  try {
    writeSync(fd, data);
    if (options?.fsync === true) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
    }
    throw error;
  }
}
function readTextFile(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return void 0;
  }
}
function statSafe(file) {
  try {
    return statSync(file);
  } catch {
    return void 0;
  }
}
function ensureDir(dir, mode = DIR_MODE) {
  mkdirSync(dir, { recursive: true, mode });
}
function listDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
function removePath(path) {
  rmSync(path, { recursive: true, force: true });
}
function renamePath(from, to) {
  renameSync(from, to);
}
function copyTree(from, to) {
  const written = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const src = join2(dir, entry.name);
      const dest = join2(to, relative(from, src));
      if (entry.isDirectory()) walk(src);
      else if (entry.isFile()) {
        mkdirSync(dirname(dest), { recursive: true });
        copyFileSync(src, dest);
        written.push(dest);
      }
    }
  };
  walk(from);
  return written;
}
function findProjectRoot(cwd) {
  let dir = resolve2(cwd);
  for (; ; ) {
    const dotGit = join2(dir, ".git");
    const stat = statSafe(dotGit);
    if (stat?.isDirectory()) return { root: dir, git: true };
    if (stat?.isFile()) {
      const main2 = worktreeMain(dotGit);
      return { root: main2 ?? dir, git: true };
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: resolve2(cwd), git: false };
    dir = parent;
  }
}
function worktreeMain(dotGitFile) {
  const text = readTextFile(dotGitFile);
  const match = text?.match(/^gitdir:\s*(.+)\s*$/m);
  if (match?.[1] === void 0) return void 0;
  const gitdir = resolve2(dirname(dotGitFile), match[1].trim());
  const parts = gitdir.split(sep);
  const at = parts.lastIndexOf("worktrees");
  if (at >= 2 && parts[at - 1] === ".git") return parts.slice(0, at - 1).join(sep) || sep;
  return void 0;
}
function pathExists(path) {
  return existsSync(path);
}

// lib/cli/install.ts
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { dirname as dirname2, join as join3, relative as relative2 } from "node:path";

// lib/cli/settings-merge.ts
var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
var OURS = /context-lifecycle[/\\]dist[/\\][a-z-]+\.mjs/;
var isOurCommand = (command) => typeof command === "string" && OURS.test(command);
function resolveHooks(hooks, runtimeDir2) {
  const quoted = runtimeDir2.replace(/(["\\$`])/g, "\\$1");
  const out2 = {};
  for (const [event, groups] of Object.entries(hooks)) {
    out2[event] = groups.map((g) => ({
      ...g,
      hooks: g.hooks.map((h) => ({ ...h, command: h.command.replaceAll("${CLAUDE_PLUGIN_ROOT}", quoted) }))
    }));
  }
  return out2;
}
function removeOurHooks(settings) {
  if (!isObj(settings.hooks)) return { settings, removed: 0 };
  let removed = 0;
  const hooks = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = [];
    for (const group of groups) {
      if (!isObj(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.filter((h) => !(isObj(h) && isOurCommand(h.command)));
      removed += group.hooks.length - handlers.length;
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const next = { ...settings };
  if (Object.keys(hooks).length > 0) next.hooks = hooks;
  else delete next.hooks;
  return { settings: next, removed };
}
function addOurHooks(settings, ours) {
  const { settings: clean } = removeOurHooks(settings);
  const hooks = isObj(clean.hooks) ? { ...clean.hooks } : {};
  for (const [event, groups] of Object.entries(ours)) {
    const existing = Array.isArray(hooks[event]) ? hooks[event] : [];
    hooks[event] = [...existing, ...groups];
  }
  return { ...clean, hooks };
}
function countOurHooks(settings) {
  const counts = /* @__PURE__ */ new Map();
  if (!isObj(settings.hooks)) return counts;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObj(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) if (isObj(h) && isOurCommand(h.command)) counts.set(event, (counts.get(event) ?? 0) + 1);
    }
  }
  return counts;
}
function ourEnabledPlugins(settings) {
  if (!isObj(settings.enabledPlugins)) return [];
  return Object.entries(settings.enabledPlugins).filter(([id, on]) => id.startsWith("context-lifecycle@") && on === true).map(([id]) => id);
}
function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
function detectIndent(text) {
  const m = text?.match(/^[{[]\s*\n([ \t]+)\S/);
  return m?.[1] ?? 2;
}

// lib/cli/install.ts
var RUNTIME_NAME = "context-lifecycle";
var MARKETPLACE = "context-lifecycle";
var PLUGIN_ID = `context-lifecycle@${MARKETPLACE}`;
var MANIFEST_VERSION = 1;
var RUNTIME_ITEMS = ["dist", "commands", "skills", "hooks.json", ".claude-plugin", "LICENSE", "README.md"];
var manifestSchema = looseObject({
  version: literal(MANIFEST_VERSION),
  installedAt: string2(),
  packageVersion: string2(),
  /** settings.json as it was before we touched it; null when it did not exist. */
  settingsOriginal: nullable(string2()),
  files: array(object({ path: string2(), sha256: string2() })),
  /** Folders the install created (commands/, skills/<name>/, …): removed again when empty. */
  createdDirs: optional(array(string2()))
});
var InstallError = class extends Error {
};
function runtimeDir(configDir2) {
  return join3(configDir2, RUNTIME_NAME);
}
function readSettings(configDir2) {
  const file = join3(configDir2, "settings.json");
  const text = readTextFile(file);
  if (text === void 0 || text.trim() === "") return { text, value: {} };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallError(`${file} is not valid JSON (${error.message}); fix it first, nothing was changed`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new InstallError(`${file} is not a JSON object; nothing was changed`);
  return { text, value };
}
function readManifest(configDir2) {
  const text = readTextFile(join3(runtimeDir(configDir2), "install.json"));
  if (text === void 0) return void 0;
  try {
    const r = manifestSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : void 0;
  } catch {
    return void 0;
  }
}
var sha256 = (text) => createHash("sha256").update(text).digest("hex");
function installPlain(ctx) {
  const { sourceRoot, configDir: configDir2, dryRun, say } = ctx;
  const target = runtimeDir(configDir2);
  for (const item of ["dist/cli.mjs", "hooks.json", "commands", "skills"]) {
    if (!pathExists(join3(sourceRoot, item)))
      throw new InstallError(`${join3(sourceRoot, item)} is missing: run this from a complete checkout (or run npm run build)`);
  }
  const settings = readSettings(configDir2);
  const plugins = ourEnabledPlugins(settings.value);
  if (plugins.length > 0) {
    throw new InstallError(`already installed as a plugin (${plugins.join(", ")}); every hook would run twice. Run \`ctxl uninstall\` first`);
  }
  const previous = readManifest(configDir2);
  const hooksJson = JSON.parse(readTextFile(join3(sourceRoot, "hooks.json")) ?? "{}");
  const ours = resolveHooks(hooksJson.hooks, target);
  const next = addOurHooks(settings.value, ours);
  const alreadyOurs = countOurHooks(settings.value).size > 0;
  const settingsOriginal = alreadyOurs ? previous?.settingsOriginal ?? null : settings.text ?? null;
  const sameTree = relative2(sourceRoot, target) === "";
  if (!sameTree) say(`${dryRun ? "would copy" : "copy"} runtime \u2192 ${target}`);
  const files = [];
  for (const name of listDir(join3(sourceRoot, "commands")).filter((f) => f.endsWith(".md"))) {
    files.push({ path: join3(configDir2, "commands", name), text: withRoot(readTextFile(join3(sourceRoot, "commands", name)) ?? "", target) });
  }
  for (const skill of listDir(join3(sourceRoot, "skills"))) {
    for (const name of listDir(join3(sourceRoot, "skills", skill)).filter((f) => f.endsWith(".md"))) {
      files.push({ path: join3(configDir2, "skills", skill, name), text: withRoot(readTextFile(join3(sourceRoot, "skills", skill, name)) ?? "", target) });
    }
  }
  const ownedBefore = new Map((previous?.files ?? []).map((f) => [f.path, f.sha256]));
  for (const f of files) {
    const existing = readTextFile(f.path);
    if (existing !== void 0 && existing !== f.text && ownedBefore.get(f.path) !== sha256(existing)) {
      throw new InstallError(`${f.path} exists and is not ours; move it away or rename it, nothing was changed`);
    }
    say(`${dryRun ? "would write" : "write"} ${f.path}`);
  }
  const added = Object.entries(ours).map(([event, groups]) => `${event}\xD7${groups.length}`);
  say(`${dryRun ? "would merge" : "merge"} hooks into ${join3(configDir2, "settings.json")}: ${added.join(", ")}`);
  if (dryRun) return;
  const createdDirs = new Set(previous?.createdDirs ?? []);
  for (const f of files) {
    for (let dir = dirname2(f.path); dir.startsWith(configDir2) && dir !== configDir2; dir = dirname2(dir)) {
      if (!pathExists(dir)) createdDirs.add(dir);
    }
  }
  ensureDir(configDir2);
  if (!sameTree) stageRuntime(sourceRoot, target);
  for (const f of files) {
    ensureDir(join3(f.path, ".."));
    writeFileAtomic(f.path, f.text, { mode: 420 });
  }
  writeSettings(configDir2, settings.text, next);
  const manifest = {
    version: MANIFEST_VERSION,
    installedAt: ctx.now.toISOString(),
    packageVersion: packageVersion(sourceRoot),
    settingsOriginal,
    files: files.map((f) => ({ path: f.path, sha256: sha256(f.text) })),
    createdDirs: [...createdDirs]
  };
  writeFileAtomic(join3(target, "install.json"), `${JSON.stringify(manifest, null, 2)}
`, { mode: 420 });
  say(`installed context-lifecycle ${manifest.packageVersion}; start a new Claude Code session to use it`);
}
function stageRuntime(sourceRoot, target) {
  const staging = `${target}.new-${process.pid}`;
  removePath(staging);
  ensureDir(staging, 493);
  for (const item of RUNTIME_ITEMS) {
    const from = join3(sourceRoot, item);
    const stat = statSafe(from);
    if (stat === void 0) continue;
    if (stat.isDirectory()) copyTree(from, join3(staging, item));
    else writeFileAtomic(join3(staging, item), readTextFile(from) ?? "", { mode: 420 });
  }
  const pkg = { name: "context-lifecycle", version: packageVersion(sourceRoot), private: true, license: "MIT" };
  writeFileAtomic(join3(staging, "package.json"), `${JSON.stringify(pkg, null, 2)}
`, { mode: 420 });
  const old = `${target}.old-${process.pid}`;
  if (pathExists(target)) renamePath(target, old);
  renamePath(staging, target);
  removePath(old);
}
function uninstall(ctx) {
  const { configDir: configDir2, dryRun, say } = ctx;
  const target = runtimeDir(configDir2);
  const manifest = readManifest(configDir2);
  const settings = readSettings(configDir2);
  const { removed } = removeOurHooks(settings.value);
  if (removed > 0) say(`${dryRun ? "would remove" : "remove"} ${removed} hook entries from ${join3(configDir2, "settings.json")}`);
  for (const f of manifest?.files ?? []) {
    const text = readTextFile(f.path);
    if (text === void 0) continue;
    if (sha256(text) !== f.sha256) {
      say(`keep ${f.path}: changed since install`);
      continue;
    }
    say(`${dryRun ? "would delete" : "delete"} ${f.path}`);
    if (!dryRun) removePath(f.path);
  }
  if (!dryRun) {
    const dirs = [...manifest?.createdDirs ?? []].sort((a, b) => b.length - a.length);
    for (const dir of dirs) if (pathExists(dir) && listDir(dir).length === 0) removePath(dir);
  }
  const plugins = ourEnabledPlugins(settings.value);
  if (plugins.length > 0) say(`${dryRun ? "would run" : "run"} claude plugin uninstall ${plugins.join(" ")}`);
  if (pathExists(target)) say(`${dryRun ? "would delete" : "delete"} ${target}`);
  if (dryRun) return;
  if (plugins.length > 0) {
    const claude = findClaude();
    if (claude === void 0) say("claude not found on PATH (or CLAUDE_BIN): run `claude plugin uninstall context-lifecycle` yourself");
    else {
      for (const id of plugins) runClaude(claude, ["plugin", "uninstall", id], say);
      runClaude(claude, ["plugin", "marketplace", "remove", MARKETPLACE], say, true);
    }
  }
  restoreSettings(configDir2, manifest?.settingsOriginal);
  removePath(target);
  say("uninstalled context-lifecycle (your archive under the data dir is kept; delete it by hand if you want it gone)");
}
function restoreSettings(configDir2, original) {
  const file = join3(configDir2, "settings.json");
  const current = readSettings(configDir2);
  const before = original === void 0 || original === null ? {} : parseOr(original);
  const { settings: cleaned } = removeOurHooks(current.value);
  for (const key of ["enabledPlugins", "extraKnownMarketplaces"]) {
    const v = cleaned[key];
    if (before !== void 0 && !(key in before) && v !== null && typeof v === "object" && Object.keys(v).length === 0) delete cleaned[key];
  }
  const restored = original !== void 0 && original !== null && deepEqual(before, cleaned);
  if (restored) writeFileAtomic(file, original, { mode: (statSafe(file)?.mode ?? 384) & 511 });
  else if (original === null && Object.keys(cleaned).length === 0) removePath(file);
  else if (!deepEqual(cleaned, current.value)) writeSettings(configDir2, current.text, cleaned, false);
  if (restored || original === null) removePath(`${file}.ctxl-backup`);
}
function installPlugin(ctx) {
  const { sourceRoot, configDir: configDir2, dryRun, say } = ctx;
  const target = runtimeDir(configDir2);
  const settings = readSettings(configDir2);
  if (countOurHooks(settings.value).size > 0) {
    throw new InstallError("already installed into settings.json; every hook would run twice. Run `ctxl uninstall` first");
  }
  const claude = findClaude();
  if (claude === void 0) throw new InstallError("--plugin needs the claude binary: put it on PATH or set CLAUDE_BIN");
  const enabled = ourEnabledPlugins(settings.value).length > 0;
  say(`${dryRun ? "would copy" : "copy"} runtime \u2192 ${target}`);
  if (!enabled) say(`${dryRun ? "would run" : "run"} claude plugin marketplace add ${target}; claude plugin install ${PLUGIN_ID}`);
  if (dryRun) return;
  const previous = readManifest(configDir2);
  ensureDir(configDir2);
  stageRuntime(sourceRoot, target);
  if (!enabled) {
    runClaude(claude, ["plugin", "marketplace", "add", target], say);
    runClaude(claude, ["plugin", "install", PLUGIN_ID], say);
  }
  const manifest = {
    version: MANIFEST_VERSION,
    installedAt: ctx.now.toISOString(),
    packageVersion: packageVersion(sourceRoot),
    settingsOriginal: enabled ? previous?.settingsOriginal ?? null : settings.text ?? null,
    files: []
  };
  writeFileAtomic(join3(target, "install.json"), `${JSON.stringify(manifest, null, 2)}
`, { mode: 420 });
  say(`${enabled ? "updated" : "installed"} context-lifecycle ${manifest.packageVersion} as a plugin; start a new Claude Code session to use it`);
}
function findClaude() {
  const fromEnv2 = process.env.CLAUDE_BIN;
  if (fromEnv2 !== void 0 && fromEnv2 !== "") return pathExists(fromEnv2) ? fromEnv2 : void 0;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir === "") continue;
    const candidate = join3(dir, "claude");
    if (pathExists(candidate)) return candidate;
  }
  return void 0;
}
function runClaude(claude, args, say, tolerate = false) {
  const r = spawnSync(claude, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 12e4 });
  const out2 = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  if (out2 !== "") say(out2.split("\n").slice(-3).join(" | "));
  if (r.status !== 0 && !tolerate) throw new InstallError(`claude ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
}
function writeSettings(configDir2, previousText, value, backup = true) {
  const file = join3(configDir2, "settings.json");
  const mode = (statSafe(file)?.mode ?? 384) & 511;
  if (backup && previousText !== void 0) writeFileAtomic(`${file}.ctxl-backup`, previousText, { mode: 384 });
  writeFileAtomic(file, `${JSON.stringify(value, null, detectIndent(previousText))}
`, { mode });
}
function withRoot(text, root2) {
  return text.replaceAll("${CLAUDE_PLUGIN_ROOT}", root2);
}
function parseOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return void 0;
  }
}
function packageVersion(root2) {
  try {
    return JSON.parse(readTextFile(join3(root2, "package.json")) ?? "{}").version ?? "unknown";
  } catch {
    return "unknown";
  }
}

// lib/cli/doctor.ts
var EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "Stop", "SessionEnd"];
function doctor(input) {
  const problems = [];
  const notes = [];
  const add = (code, message, fix) => problems.push({ code, message, fix });
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 20 || major === 20 && minor < 19) add("node-version", `node ${process.versions.node} is older than 20.19`, "install Node.js 20.19 or newer");
  else notes.push(`node ${process.versions.node}`);
  const settingsFile = join4(input.configDir, "settings.json");
  let settings = {};
  const text = readTextFile(settingsFile);
  if (text !== void 0 && text.trim() !== "") {
    try {
      settings = JSON.parse(text);
    } catch {
      add("settings-invalid", `${settingsFile} is not valid JSON`, "fix the JSON syntax; Claude Code ignores an invalid settings file");
    }
  }
  const plain = countOurHooks(settings);
  const plugins = ourEnabledPlugins(settings);
  for (const event of EVENTS) {
    const where = [
      plain.has(event) ? `settings.json${(plain.get(event) ?? 0) > 1 ? ` \xD7${plain.get(event)}` : ""}` : void 0,
      plugins.length > 0 ? `plugin ${plugins.join(", ")}` : void 0
    ].filter(Boolean);
    notes.push(`${event.padEnd(18)} ${where.length > 0 ? where.join(" + ") : "not bound"}`);
    if ((plain.get(event) ?? 0) > 1)
      add(
        "duplicate-hook",
        `${event} is bound ${plain.get(event)} times in settings.json`,
        "run `ctxl install` again: it replaces all of our entries with one set"
      );
  }
  if (plain.size === 0 && plugins.length === 0)
    add(
      "not-installed",
      "no context-lifecycle hooks are bound (neither settings.json nor an enabled plugin)",
      "run `ctxl install` (or `ctxl install --plugin`)"
    );
  if (plain.size > 0 && plugins.length > 0)
    add(
      "double-install",
      `installed both in settings.json and as plugin ${plugins.join(", ")}: every hook runs twice`,
      "run `ctxl uninstall`, then install one way only"
    );
  if (plain.size > 0) {
    for (const command of boundCommands(settings)) {
      const file = /"([^"]+\.mjs)"/.exec(command)?.[1];
      if (file !== void 0 && !pathExists(file))
        add("missing-runtime", `a hook points at ${file}, which does not exist`, "run `ctxl install` again from a checkout");
    }
    if (!pathExists(join4(runtimeDir(input.configDir), "dist", "cli.mjs")))
      add("missing-runtime", `${runtimeDir(input.configDir)} is incomplete`, "run `ctxl install` again");
  }
  const data = dataDir(input.env);
  const stat = statSafe(data);
  if (stat === void 0) notes.push(`data dir ${data} (created on first use)`);
  else {
    notes.push(`data dir ${data}`);
    if ((stat.mode & 63) !== 0) add("data-dir-permissions", `${data} is readable by others (mode ${(stat.mode & 511).toString(8)})`, `chmod 700 ${data}`);
    try {
      accessSync(data, constants2.W_OK);
    } catch {
      add("data-dir-unwritable", `${data} is not writable`, `make ${data} writable by you, or set CTXL_HOME`);
    }
  }
  const project = findProjectRoot(input.cwd);
  const { problems: configProblems } = loadConfig({
    env: input.env,
    userText: readTextFile(join4(data, "config.json")),
    projectText: readTextFile(join4(project.root, ".claude", "context-lifecycle.json"))
  });
  for (const p of configProblems)
    add("config-invalid", `${p.source} config: ${p.message}`, "fix or remove the key (see the configuration table in the README)");
  for (const file of listDir(join4(data, "state")).filter((f) => f.startsWith("breaker-"))) {
    try {
      const state = JSON.parse(readTextFile(join4(data, "state", file)) ?? "{}");
      if (state.openUntil !== void 0 && Date.parse(state.openUntil) > input.now.getTime()) {
        add(
          "circuit-open",
          `${file.slice(8, -5)} is paused after repeated failures until ${state.openUntil}`,
          "see the errors below; it retries by itself after the cool-down"
        );
      }
    } catch {
    }
  }
  const errors = recentErrors(join4(data, "logs", "ctxl.log"), input.now);
  if (errors.length > 0)
    add("recent-errors", `${errors.length} error(s) in the log in the last 24 h; last: ${errors.at(-1)}`, `read ${join4(data, "logs", "ctxl.log")}`);
  return { ok: problems.length === 0, problems, notes };
}
function boundCommands(settings) {
  const out2 = [];
  const hooks = settings.hooks;
  if (hooks === null || typeof hooks !== "object") return out2;
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const handlers = g.hooks;
      if (!Array.isArray(handlers)) continue;
      for (const h of handlers) {
        const command = h.command;
        if (isOurCommand(command)) out2.push(command);
      }
    }
  }
  return out2;
}
function recentErrors(file, now) {
  const text = readTextFile(file);
  if (text === void 0) return [];
  const since = now.getTime() - 24 * 3600 * 1e3;
  const out2 = [];
  for (const line of text.split("\n").slice(-500)) {
    try {
      const entry = JSON.parse(line);
      if (entry.level === "error" && entry.t !== void 0 && Date.parse(entry.t) >= since) out2.push(`${entry.scope}: ${entry.msg}`);
    } catch {
    }
  }
  return out2;
}

// lib/cli/status.ts
import { join as join7 } from "node:path";

// lib/context/claude-settings.ts
import { join as join5 } from "node:path";

// lib/context/window.ts
var DEFAULT_WINDOW = 2e5;
var ONE_MILLION = 1e6;
var CLIENT_DEFAULT_MODEL = "claude-opus-5-5";
var ONE_MILLION_MODELS = [/^claude-opus-5(?:-|$)/, /^opus$/];
function modelWindow(model, env) {
  if (env.CLAUDE_CODE_DISABLE_1M_CONTEXT === "1") return DEFAULT_WINDOW;
  const max = Number(env.CLAUDE_CODE_MAX_CONTEXT_TOKENS);
  if (Number.isInteger(max) && max > 0) return max;
  const id = (model ?? CLIENT_DEFAULT_MODEL).trim().toLowerCase();
  if (/\[1m\]$/.test(id)) return ONE_MILLION;
  return ONE_MILLION_MODELS.some((re) => re.test(id)) ? ONE_MILLION : DEFAULT_WINDOW;
}
function contextWindow(input) {
  if (input.configured > 0) return input.configured;
  const model = modelWindow(
    [...input.models, input.env.ANTHROPIC_MODEL].find((m) => m !== void 0 && m !== ""),
    input.env
  );
  const fromEnv2 = Number(input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  const override = Number.isInteger(fromEnv2) && fromEnv2 > 0 ? fromEnv2 : input.autoCompactWindow;
  if (override !== void 0 && override >= 1e5 && override <= ONE_MILLION) return Math.min(override, model);
  return model;
}

// lib/context/claude-settings.ts
function windowSettings(texts) {
  const out2 = {};
  for (const text of texts) {
    if (text === void 0) continue;
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const { model, autoCompactWindow } = value;
    if (typeof model === "string" && model !== "") out2.model = model;
    if (typeof autoCompactWindow === "number") out2.autoCompactWindow = autoCompactWindow;
  }
  return out2;
}
function settingsFiles(config2, projectRoot) {
  return [join5(config2, "settings.json"), join5(projectRoot, ".claude", "settings.json"), join5(projectRoot, ".claude", "settings.local.json")];
}
function sessionWindow(input) {
  const settings = windowSettings(settingsFiles(configDir(input.env), input.projectRoot).map(readTextFile));
  return contextWindow({
    models: [...input.models, settings.model],
    env: input.env,
    configured: input.config.windowTokens,
    autoCompactWindow: settings.autoCompactWindow
  });
}

// lib/runtime/log.ts
import { appendFileSync, chmodSync as chmodSync2, lstatSync, mkdirSync as mkdirSync2, renameSync as renameSync2, statSync as statSync2 } from "node:fs";
import { tmpdir } from "node:os";
import { dirname as dirname3, join as join6 } from "node:path";
var RANK = { error: 0, warn: 1, info: 2, debug: 3 };
var ROTATE_BYTES = 1024 * 1024;
function createFileLogger(options) {
  let level = options.level ?? "warn";
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  const write = (at, message, detail) => {
    if (options.file === void 0 || RANK[at] > RANK[level]) return;
    const line = { t: now().toISOString(), level: at, scope: options.scope, msg: message };
    if (options.sessionId !== void 0) line.session = options.sessionId;
    if (detail !== void 0) line.detail = describe2(detail);
    const text = `${JSON.stringify(line)}
`;
    if (!appendTo(options.file, text)) appendTo(fallbackLogFile(), text);
  };
  return {
    error: (m, d) => write("error", m, d),
    warn: (m, d) => write("warn", m, d),
    info: (m, d) => write("info", m, d),
    debug: (m, d) => write("debug", m, d),
    setLevel: (l) => {
      level = l;
    },
    file: options.file
  };
}
function appendTo(file, text) {
  if (file === void 0) return false;
  try {
    mkdirSync2(dirname3(file), { recursive: true, mode: 448 });
    rotateIfLarge(file);
    appendFileSync(file, text, { mode: 384 });
    return true;
  } catch {
    return false;
  }
}
function fallbackLogFile() {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const dir = join6(tmpdir(), `context-lifecycle-${uid}`);
  try {
    mkdirSync2(dir, { recursive: true, mode: 448 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.isSymbolicLink() || typeof process.getuid === "function" && stat.uid !== uid || (stat.mode & 63) !== 0)
      return void 0;
    return join6(dir, "ctxl.log");
  } catch {
    return void 0;
  }
}
function rotateIfLarge(file) {
  let size = 0;
  try {
    size = statSync2(file).size;
  } catch {
    return;
  }
  if (size < ROTATE_BYTES) return;
  try {
    renameSync2(file, `${file}.1`);
    chmodSync2(`${file}.1`, 384);
  } catch {
  }
}
function describe2(detail) {
  if (detail instanceof Error) {
    const code = detail.code;
    return { error: detail.message, ...code === void 0 ? {} : { code }, stack: detail.stack?.split("\n").slice(1, 4).join(" | ") };
  }
  if (typeof detail === "string") return detail.length > 2e3 ? `${detail.slice(0, 2e3)}\u2026` : detail;
  return detail;
}

// lib/transcript/context-size.ts
var CHARS_PER_TOKEN = 4;
function contextTokens(state) {
  return state.reported + Math.ceil(state.charsAfter / CHARS_PER_TOKEN);
}

// lib/transcript/lines.ts
var CHUNK = 256 * 1024;
var DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

// lib/transcript/reader.ts
var CURSOR_VERSION = 1;

// lib/session/session-files.ts
var SESSION_VERSION = 1;
var sessionSchema = looseObject({
  version: literal(SESSION_VERSION),
  sessionId: string2(),
  cwd: string2(),
  projectRoot: string2(),
  transcriptPath: optional(string2()),
  startedAt: string2(),
  lastSeenAt: string2(),
  source: optional(string2()),
  model: optional(string2()),
  prompts: number2(),
  starts: number2(),
  closedAt: optional(string2()),
  endReason: optional(string2())
});
var cursorSchema = looseObject({
  version: literal(CURSOR_VERSION),
  offset: number2(),
  anchor: string2(),
  context: object({
    reported: number2(),
    charsAfter: number2(),
    usageKey: optional(string2()),
    firstReported: optional(number2()),
    compactions: number2(),
    model: optional(string2())
  }),
  lines: number2(),
  bad: number2(),
  oversize: number2(),
  transcriptPath: optional(string2()),
  updatedAt: optional(string2())
});
var sessionFile = (store, sessionId) => store.path("sessions", sessionId, "session.json");
var cursorFile = (store, sessionId) => store.path("sessions", sessionId, "cursor.json");
function readOrSetAside(store, file, schema, log, now) {
  const result = store.readJson(file, schema);
  if (result.ok) return result.value;
  if (result.reason === "missing") return void 0;
  const aside = result.reason === "io" ? void 0 : store.setAside(file, now);
  log.warn(`${file}: ${result.reason} (${result.detail ?? ""}); ${aside === void 0 ? "left in place" : `set aside as ${aside}`} and rebuilt`);
  return void 0;
}
function readSession(store, sessionId, log, now) {
  return readOrSetAside(store, sessionFile(store, sessionId), sessionSchema, log, now);
}
function readCursor(store, sessionId, log, now) {
  return readOrSetAside(store, cursorFile(store, sessionId), cursorSchema, log, now);
}

// lib/cli/status.ts
function status(input) {
  const log = createFileLogger({ file: void 0, scope: "cli" });
  const store = openStore(dataDir(input.env), log);
  const projectRoot = findProjectRoot(input.cwd).root;
  const sessionId = input.sessionId ?? latestSessionFor(store.root, projectRoot, input.now);
  const session = sessionId === void 0 ? void 0 : readSession(store, sessionId, log, input.now);
  const cursor = sessionId === void 0 ? void 0 : readCursor(store, sessionId, log, input.now);
  const tokens = cursor === void 0 ? void 0 : contextTokens(cursor.context);
  const { config: config2 } = loadConfig({
    env: input.env,
    userText: readTextFile(join7(store.root, "config.json")),
    projectText: readTextFile(join7(projectRoot, ".claude", "context-lifecycle.json"))
  });
  const window = sessionWindow({ env: input.env, config: config2, projectRoot: session?.projectRoot ?? projectRoot, models: [cursor?.context.model, session?.model] });
  return {
    sessionId,
    projectRoot: session?.projectRoot ?? projectRoot,
    phase: "unknown",
    contextTokens: tokens,
    window,
    percent: tokens === void 0 ? void 0 : Math.round(tokens / window * 1e3) / 10,
    transcriptLines: cursor?.lines,
    compactions: cursor?.context.compactions,
    lastSeenAt: session?.lastSeenAt,
    closed: session === void 0 ? void 0 : session.closedAt !== void 0
  };
}
function latestSessionFor(root2, projectRoot, now) {
  const log = createFileLogger({ file: void 0, scope: "cli" });
  const store = openStore(root2, log);
  let best;
  for (const id of listDir(join7(root2, "sessions"))) {
    if (sanitizeName(id) !== id) continue;
    const s = readSession(store, id, log, now);
    if (s === void 0 || s.projectRoot !== projectRoot) continue;
    if (best === void 0 || s.lastSeenAt > best.seen) best = { id, seen: s.lastSeenAt };
  }
  return best?.id;
}
function renderStatus(r) {
  if (r.sessionId === void 0) return `context-lifecycle: no session recorded yet for ${r.projectRoot}`;
  const lines = [`context-lifecycle \xB7 session ${r.sessionId}${r.closed === true ? " (ended)" : ""}`, `phase: ${r.phase}`];
  if (r.contextTokens === void 0) lines.push("context: not measured yet (measured at the end of each turn)");
  else lines.push(`context: ${r.contextTokens.toLocaleString("en-US")} of ${r.window.toLocaleString("en-US")} tokens (${r.percent}%) ${bar(r.percent ?? 0)}`);
  if (r.transcriptLines !== void 0) lines.push(`transcript: ${r.transcriptLines} lines read, ${r.compactions ?? 0} compaction(s)`);
  return lines.join("\n");
}
function bar(percent) {
  const width = 20;
  const filled = Math.max(0, Math.min(width, Math.round(percent / 100 * width)));
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
}

// lib/cli/main.ts
var HELP = `ctxl \u2014 context-lifecycle for Claude Code

  ctxl install [--plugin] [--dry-run]   install into ~/.claude (or as a Claude Code plugin)
  ctxl uninstall [--dry-run]            remove it; settings.json is left as it was without us
  ctxl doctor [--json]                  check the installation; exit 1 when something is wrong
  ctxl status [--session ID] [--cwd DIR] [--json]
  ctxl version | help

Coming with the archive and phases: ingest, recall, show, timeline, consolidate, reindex, gc.`;
var PLANNED = /* @__PURE__ */ new Set(["ingest", "recall", "show", "timeline", "consolidate", "reindex", "gc"]);
var root = resolve3(dirname4(fileURLToPath(import.meta.url)), "..");
var out = (line) => process.stdout.write(`${line}
`);
function main(argv) {
  const [command, ...rest] = argv;
  const env = process.env;
  const now = /* @__PURE__ */ new Date();
  const config2 = configDir(env);
  switch (command) {
    case void 0:
    case "help":
    case "--help":
    case "-h":
      out(HELP);
      return 0;
    case "version":
    case "--version":
      out(packageVersion(root));
      return 0;
    case "install": {
      const p = parseArgs(rest, { booleans: ["plugin", "dry-run"], values: [] });
      noPositional(p, "install");
      const ctx = { sourceRoot: root, configDir: config2, dryRun: flagBool(p, "dry-run"), now, say: out };
      if (flagBool(p, "plugin")) installPlugin(ctx);
      else installPlain(ctx);
      return 0;
    }
    case "uninstall": {
      const p = parseArgs(rest, { booleans: ["dry-run"], values: [] });
      noPositional(p, "uninstall");
      uninstall({ configDir: config2, dryRun: flagBool(p, "dry-run"), now, say: out });
      return 0;
    }
    case "doctor": {
      const p = parseArgs(rest, { booleans: ["json"], values: ["cwd"] });
      noPositional(p, "doctor");
      const report = doctor({ env, configDir: config2, cwd: resolve3(flagString(p, "cwd") ?? process.cwd()), now });
      if (flagBool(p, "json")) out(JSON.stringify({ ok: report.ok, problems: report.problems }));
      else {
        for (const n of report.notes) out(`  ${n}`);
        for (const problem of report.problems) out(`\u2717 ${problem.code}: ${problem.message}
    fix: ${problem.fix}`);
        out(report.ok ? "\u2713 all good" : `${report.problems.length} problem(s) found`);
      }
      return report.ok ? 0 : 1;
    }
    case "status": {
      const p = parseArgs(rest, { booleans: ["json"], values: ["session", "cwd"] });
      noPositional(p, "status");
      const report = status({ env, cwd: resolve3(flagString(p, "cwd") ?? process.cwd()), sessionId: flagString(p, "session"), now });
      out(flagBool(p, "json") ? JSON.stringify(report) : renderStatus(report));
      return 0;
    }
    default:
      if (PLANNED.has(command)) throw new UsageError(`'${command}' is not available in this version yet`);
      throw new UsageError(`unknown command '${command}' (try: ctxl help)`);
  }
}
function noPositional(p, command) {
  if (p.positional.length > 0) throw new UsageError(`${command} takes no argument '${p.positional[0]}'`);
}
try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  const usage = error instanceof UsageError;
  const known = usage || error instanceof InstallError;
  process.stderr.write(`ctxl: ${known ? error.message : `internal error: ${error.stack ?? String(error)}`}
`);
  process.exitCode = usage ? 2 : 1;
}
