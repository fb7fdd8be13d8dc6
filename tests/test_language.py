"""The prose's language, conservatively: the right code, or `und`, never a wrong code."""

from __future__ import annotations

import pytest

from harness.challenge.language import detect_language

PARAGRAPHS = [
    (
        "en",
        "Write a function that takes the number of a game and returns "
        "the cards of its board, dealt in the same order as the algorithm.",
    ),
    (
        "es",
        "Escribe una función que reciba el número de una partida y devuelva "
        "las cartas del tablero, repartidas en el mismo orden que el algoritmo.",
    ),
    (
        "pt",
        "Escreva uma função que receba o número de um jogo e retorne as "
        "cartas da mesa, distribuídas na mesma ordem do algoritmo, não em outra.",
    ),
    (
        "it",
        "Scrivi una funzione che riceve il numero di una partita e "
        "restituisce le carte del tavolo, distribuite nello stesso ordine dell'algoritmo.",
    ),
    (
        "de",
        "Schreibe eine Funktion, die die Nummer eines Spiels erhält und die "
        "Karten des Spielfelds zurückgibt, in der Reihenfolge des Algorithmus.",
    ),
    (
        "fr",
        "Écrivez une fonction qui reçoit le numéro d'une partie et renvoie "
        "les cartes de la table, distribuées dans le même ordre que l'algorithme.",
    ),
    (
        "sw",
        "Andika kazi ambayo inapokea namba ya mchezo na kurudisha kadi za "
        "meza, zilizogawanywa kwa mpangilio ule ule wa algorithimu hii kila mara.",
    ),
    (
        "uk",
        "Напишіть функцію, яка отримує номер гри та повертає карти "
        "її розкладу, роздані в тому ж порядку, що й у цьому алгоритмі.",
    ),
    (
        "ru",
        "Напишите функцию, которая получает номер игры и возвращает карты "
        "её раскладки, розданные в том же порядке, что и в этом алгоритме.",
    ),
    ("th", "เขียนฟังก์ชันที่รับหมายเลขเกมและคืนค่าไพ่บนกระดาน โดยแจกตามลำดับเดียวกับอัลกอริทึมนี้"),
    ("zh", "编写一个函数，接收游戏编号并返回牌局中的牌，按照与该算法相同的顺序发牌。"),
    ("ja", "ゲーム番号を受け取り、このアルゴリズムと同じ順序で配られたカードを返す関数を作成してください。"),
    ("ar", "اكتب دالة تستقبل رقم اللعبة وتعيد أوراق اللوحة موزعة بنفس ترتيب هذه الخوارزمية في كل مرة."),
    ("ko", "게임 번호를 받아 이 알고리즘과 같은 순서로 나누어 준 카드를 돌려주는 함수를 작성하세요."),
]
UNSURE = [
    ("code only", "const x = dealFreeCell(1); assert(x.length === 7);"),
    ("too short", "Deal the cards."),
    ("Persian", "تابعی بنویسید که شماره بازی را بگیرد و کارت‌های میز را به همان ترتیب الگوریتم پخش کند."),
    ("Serbian", "Напишите функцију која прима број игре и враћа карте, подељене истим редоследом као алгоритам."),
    (
        "Turkish",
        "Oyun numarasını alan ve kartları algoritmayla aynı sırada "
        "dağıtılmış olarak döndüren bir fonksiyon yazın; üç büyük örnek gösterilir.",
    ),
    (
        "Dutch",
        "Schrijf een functie die het nummer van een spel krijgt en de "
        "kaarten van het bord teruggeeft, in dezelfde volgorde als het algoritme.",
    ),
    (
        "Catalan",
        "Escriu una funció que rebi el número d'una partida i retorni les "
        "cartes del tauler, repartides en el mateix ordre que l'algorisme.",
    ),
    (
        "Swedish",
        "Skriv en funktion som tar emot numret på ett spel och returnerar "
        "kortens ordning på bordet, utdelade i samma ordning som algoritmen.",
    ),
    (
        "Polish",
        "Napisz funkcję, która przyjmuje numer gry i zwraca "
        "karty z planszy, rozdane w tej samej kolejności co algorytm.",
    ),
]


@pytest.mark.parametrize(("code", "text"), PARAGRAPHS, ids=[c for c, _ in PARAGRAPHS])
def test_each_language_is_named(code: str, text: str) -> None:
    assert detect_language(text) == code


@pytest.mark.parametrize(("why", "text"), UNSURE, ids=[w for w, _ in UNSURE])
def test_unsure_is_und(why: str, text: str) -> None:
    assert detect_language(text) == "und"


@pytest.mark.parametrize(("code", "text"), PARAGRAPHS, ids=[c for c, _ in PARAGRAPHS])
def test_english_card_names_do_not_outvote_the_prose(code: str, text: str) -> None:
    """Challenge prose quotes code and card names (AC, 2D, dealFreeCell) whatever its language."""
    noise = " dealFreeCell(617) ['JD', '2D', '9H'] Game #1 Ace of Clubs."
    assert detect_language(text + noise) in (code, "und")
    assert detect_language(text + " " + text + noise) == code
