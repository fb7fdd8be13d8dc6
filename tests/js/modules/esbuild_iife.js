"use strict";
// An esbuild bundle for the browser (--format=iife --global-name=FreeCell): the module's exports
// are an object in the global FreeCell; the dealer is named with #FreeCell.dealGame.
var FreeCell = (() => {
  var __defProp = Object.defineProperty;
  var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (let key of __getOwnPropNames(from))
        if (!__hasOwnProp.call(to, key) && key !== except)
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
    }
    return to;
  };
  var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

  // src/index.ts
  var src_exports = {};
  __export(src_exports, {
    dealGame: () => dealGame,
    version: () => version
  });

  // src/rng.ts
  function createRng(seed) {
    let state = seed;
    return () => {
      state = Math.imul(state, 214013) + 2531011 & 2147483647;
      return state >> 16;
    };
  }

  // src/index.ts
  var version = "1.2.0";
  function dealGame(seed) {
    const rng = createRng(seed);
    const deck = [];
    for (let i = 0; i < 52; i++) deck.push("A23456789TJQK"[i >> 2] + "CDHS"[i & 3]);
    const cols = Array.from({ length: 8 }, () => []);
    for (let i = 0; i < 52; i++) {
      const left = 52 - i;
      const k = rng() % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      cols[i % 8].push(deck.pop());
    }
    return cols;
  }
  return __toCommonJS(src_exports);
})();
