"""The language of a challenge's prose, conservatively: an ISO 639-1 code, or `und` when unsure.

Evidence comes in two kinds: letters of a script (kana is Japanese, Hangul Korean, Thai Thai,
Han without kana Chinese, Cyrillic with і ї є ґ Ukrainian and with ы э Russian, Arabic script
without Persian letters Arabic), and, for Latin text, common words that belong to one language
only among those known here (a word two languages share counts for neither), with the
diacritics that only one of them uses.  A code is given only when the evidence is ample and one
language clearly leads; a wrong code is worse than `und`.
"""

from __future__ import annotations

import re
from collections import Counter

UNDETERMINED = "und"
MIN_SCRIPT_LETTERS = 12
MIN_SCRIPT_SHARE = 0.15  # of all letters: a few foreign names in English prose decide nothing
MIN_WORD_HITS = 4
LEAD_FACTOR = 2.0  # the best language needs this many times the runner-up's evidence

_WORDS: dict[str, str] = {
    "en": "the and of to is are this that with from for which be by it its then first next each should "
    "must will you your an as when return returns function array number",
    "es": "el los las del y con una es está este esta por para se su sus como luego cada debe cartas "
    "número números hasta que más también son",
    "pt": "o os do da dos das e com uma um não é em para pelo pela ao se esta este são cada deve cartas "
    "número números até que também você",
    "it": "il lo gli della delle dei di e è con una un per che al si questa questo sono ogni deve carte "
    "numero numeri fino anche",
    "de": "der die das und mit ein eine einen ist im für von zu den dem nicht auf sich wird werden "
    "wenn oder jede jeder muss karten zahl bis auch",
    "fr": "le les des du et avec une un est dans pour par que au ce cette sont chaque doit cartes "
    "nombre jusqu aussi qui",
    "sw": "ya wa kwa ni za katika kuwa hii hiyo cha vya kama lakini pia ili baada kila yake wake "
    "huu hizi zote moja kadi namba lazima kisha",
}
# A word in two lists tells the two apart from nothing: it counts for neither.
_COUNTS = Counter(w for words in _WORDS.values() for w in set(words.split()))
_DISTINCT = {code: frozenset(w for w in words.split() if _COUNTS[w] == 1) for code, words in _WORDS.items()}
_DIACRITICS = {
    "pt": re.compile(r"[ãõ]"),
    "es": re.compile(r"[ñ¿¡]"),
    "de": re.compile(r"[ß]|\b\w*[äöü]\w*\b"),
    "fr": re.compile(r"[èêëîïôûç]"),
}

_SCRIPTS = {
    "kana": re.compile(r"[\u3040-\u30ff]"),
    "han": re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]"),
    "hangul": re.compile(r"[\uac00-\ud7af\u1100-\u11ff]"),
    "thai": re.compile(r"[\u0e00-\u0e7f]"),
    "cyrillic": re.compile(r"[\u0400-\u04ff]"),
    "arabic": re.compile(r"[\u0600-\u06ff]"),
}
_UKRAINIAN = re.compile(r"[іїєґІЇЄҐ]")
_RUSSIAN = re.compile(r"[ыэъЫЭЪ]")
_OTHER_CYRILLIC = re.compile(r"[ђјљњћџўЂЈЉЊЋЏЎ]")  # Serbian, Macedonian, Belarusian
_PERSIAN = re.compile(r"[پچژگکی]")  # letters Persian and Urdu use and Arabic does not


def detect_language(text: str) -> str:
    """ISO 639-1 code of the prose's language, or `und` when the evidence is thin or mixed."""
    letters = sum(1 for ch in text if ch.isalpha())
    if not letters:
        return UNDETERMINED
    counts = {name: len(rx.findall(text)) for name, rx in _SCRIPTS.items()}

    def ample(n: int) -> bool:
        return n >= MIN_SCRIPT_LETTERS and n >= MIN_SCRIPT_SHARE * letters

    if ample(counts["kana"]) or (counts["kana"] >= MIN_SCRIPT_LETTERS and ample(counts["kana"] + counts["han"])):
        return "ja"
    if ample(counts["hangul"]):
        return "ko"
    if ample(counts["han"]):
        return "zh" if counts["kana"] == 0 else UNDETERMINED
    if ample(counts["thai"]):
        return "th"
    if ample(counts["cyrillic"]):
        return _cyrillic(text)
    if ample(counts["arabic"]):
        return UNDETERMINED if _PERSIAN.search(text) else "ar"
    return _latin(text)


def _cyrillic(text: str) -> str:
    if _OTHER_CYRILLIC.search(text):
        return UNDETERMINED
    uk = len(_UKRAINIAN.findall(text))
    ru = len(_RUSSIAN.findall(text))
    if uk and not ru:
        return "uk"
    if ru and not uk:
        return "ru"
    return UNDETERMINED


def _latin(text: str) -> str:
    words = re.findall(r"[^\W\d_]+", text.lower())
    hits = {code: sum(1 for w in words if w in distinct) for code, distinct in _DISTINCT.items()}
    scores = dict(hits)
    for code, rx in _DIACRITICS.items():
        scores[code] += 2 * min(len(rx.findall(text.lower())), 5)
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    if hits[best] < MIN_WORD_HITS or top < LEAD_FACTOR * second:
        return UNDETERMINED
    return best
