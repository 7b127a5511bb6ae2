"""Reference values for Verity's WordNet lexicon (src/core/lexicon/) and METEOR's synonym stage.

Run from the repo root with the Debian Python (python3-nltk 3.8 and wordnet-base, WordNet 3.0):

    /usr/bin/python3 scripts/reference/wordnet_reference.py

Writes test/fixtures/wordnet-reference.json:
- meteor: nltk.translate.meteor_score.meteor_score(references, hypothesis, wordnet=WordNet 3.0) for cases
  where synonyms matter (and some where they do not), tokenized as s.lower().split();
- synsets: for a word list, nltk's wordnet.synsets(word) as each synset's lemma names (morphy and sense order);
- morphy: wordnet._morphy(form, pos) for inflected forms.

nltk reads Debian's database with WordNetCorpusReader once it has a `lexnames` file, which wordnet-base does not
ship: the 45 standard lexicographer file names are written to a temporary copy of the folder.
"""

import json
import os
import shutil
import sys
import tempfile

import nltk
from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.translate.meteor_score import meteor_score

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "test", "fixtures", "wordnet-reference.json")
WORDNET = os.environ.get("WORDNET_DIR", "/usr/share/wordnet")

LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body
noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive
noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation
noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication
verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception
verb.possession verb.social verb.stative verb.weather adj.ppl""".split()


def reader():
    tmp = tempfile.mkdtemp(prefix="wordnet-")
    for f in os.listdir(WORDNET):
        src = os.path.join(WORDNET, f)
        if os.path.isfile(src):
            os.symlink(src, os.path.join(tmp, f))
    with open(os.path.join(tmp, "lexnames"), "w") as out:
        for i, name in enumerate(LEXNAMES):
            pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}[name.split(".")[0]]
            out.write(f"{i:02d}\t{name}\t{pos}\n")
    return WordNetCorpusReader(tmp, None), tmp


METEOR_CASES = [
    (["a big house"], "a large house"),
    (["The cattle grazed in the field."], "The cows grazed in the field."),
    (["he was happy"], "he was glad"),
    (["the car is fast"], "the automobile is quick"),
    (["She bought a couch"], "She purchased a sofa"),
    (["the movie was funny"], "the film was amusing"),
    (["groundhog"], "woodchuck"),
    (["blue whale"], "sulfur bottom whale"),
    (["The doctor examined the patient"], "The physician checked the patient"),
    (["They began the journey"], "They started the trip"),
    (["an enormous ship"], "a huge vessel"),
    (["the children were running"], "the kids ran"),
    (["Mars", "the red planet"], "Mars is the red planet"),
    (["William Shakespeare"], "The Bard of Avon"),
    (["stop the engine"], "halt the motor"),
    (["geese"], "goose"),
    (["The answer is correct"], "The reply is right"),
    (["a small dog barked"], "a little dog barked loudly"),
    (["Paris, France"], "Paris"),
    (["He died in 1990"], "He passed away in 1990"),
    (["the ocean is deep"], "the sea is deep"),
    (["the boy was smart"], "the lad was clever"),
    (["quickly"], "rapidly"),
    (["begin"], "commence"),
    (["the people"], "the folk"),
    (["oranges"], "orange"),
    (["Photosynthesis releases oxygen"], "Plants give off oxygen"),
    (["a wealthy man"], "a rich gentleman"),
    (["the hat was red"], "the cap was crimson"),
    (["it is hot"], "it is cold"),
]

SYNSET_WORDS = [
    "cattle", "cows", "oranges", "platypus", "blue_whale", "red_planet", "bard_of_avon", "groundhog",
    "monotremes", "geese", "running", "ran", "better", "best", "fastest", "women", "churches", "boxes",
    "leaves", "mice", "feet", "went", "happier", "larger", "flies", "studies", "constructor", "us",
    "axes", "data", "ashes", "loved", "making", "cosmos", "glasses", "balaenoptera_musculus", "marmota_monax",
]

MORPHY = [
    ("dogs", "n"), ("churches", "n"), ("aardwolves", "n"), ("abaci", "n"), ("hardrock", "n"), ("books", "n"),
    ("running", "v"), ("denied", "v"), ("lying", "v"), ("goes", "v"), ("was", "v"), ("hiking", "v"),
    ("happiest", "a"), ("bigger", "a"), ("nicer", "a"), ("fastest", "a"), ("quickly", "r"), ("best", "r"),
]


def main():
    wn, tmp = reader()
    try:
        out = {
            "nltk_version": nltk.__version__,
            "wordnet_version": wn.get_version(),
            "meteor": [],
            "synsets": {},
            "morphy": [],
        }
        for refs, hyp in METEOR_CASES:
            score = meteor_score([r.lower().split() for r in refs], hyp.lower().split(), wordnet=wn)
            out["meteor"].append({"golds": refs, "candidate": hyp, "meteor": score})
        for w in SYNSET_WORDS:
            out["synsets"][w] = [[l.name() for l in s.lemmas()] for s in wn.synsets(w)]
        for form, pos in MORPHY:
            out["morphy"].append({"form": form, "pos": pos, "bases": wn._morphy(form, pos)})
    finally:
        shutil.rmtree(tmp)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {OUT}: {len(out['meteor'])} METEOR cases, {len(out['synsets'])} words, WordNet {out['wordnet_version']}", file=sys.stderr)


if __name__ == "__main__":
    main()
