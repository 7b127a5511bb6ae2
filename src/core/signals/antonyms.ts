/**
 * @file Opposite values and antonymous predicates common in factual QA, for the polarity signal.
 *
 * Curated from the direct antonym pairs of Princeton WordNet 3.1 (Miller, 1995, "WordNet: a lexical database
 * for English", CACM 38(11); https://wordnet.princeton.edu), kept to the predicates and values that factual
 * questions turn on (direction, quantity change, physical and chemical opposites, life-cycle verbs). A lexicon
 * package was considered: the npm WordNet packages ship the whole 30 MB database, far beyond what the
 * embedded judge may load, for the ~100 pairs that matter here.
 */
export const ANTONYM_PAIRS: readonly (readonly [string, string])[] = [
  ['increase', 'decrease'], ['rise', 'fall'], ['expand', 'contract'], ['grow', 'shrink'], ['gain', 'lose'],
  ['raise', 'lower'], ['higher', 'lower'], ['more', 'less'], ['most', 'least'], ['larger', 'smaller'],
  ['largest', 'smallest'], ['biggest', 'smallest'], ['longest', 'shortest'], ['tallest', 'shortest'],
  ['highest', 'lowest'], ['hardest', 'softest'], ['most', 'fewest'], ['more', 'fewer'], ['closest', 'farthest'], ['closer', 'farther'], ['nearest', 'farthest'], ['nearest', 'furthest'], ['closest', 'furthest'], ['heaviest', 'lightest'], ['fastest', 'slowest'], ['hottest', 'coldest'],
  ['oldest', 'youngest'], ['first', 'last'], ['maximum', 'minimum'], ['above', 'below'], ['before', 'after'],
  ['earlier', 'later'], ['inside', 'outside'], ['upper', 'lower'],
  ['attract', 'repel'], ['absorb', 'emit'], ['absorb', 'release'], ['absorb', 'reflect'], ['inhale', 'exhale'],
  ['import', 'export'], ['push', 'pull'], ['accelerate', 'decelerate'], ['heat', 'cool'], ['warm', 'cool'],
  ['freeze', 'melt'], ['condense', 'evaporate'], ['dissolve', 'precipitate'], ['oxidize', 'reduce'],
  ['acid', 'base'], ['acidic', 'alkaline'], ['acidic', 'basic'], ['positive', 'negative'], ['cation', 'anion'],
  ['conductor', 'insulator'], ['endothermic', 'exothermic'], ['soluble', 'insoluble'], ['magnetic', 'nonmagnetic'],
  ['metal', 'nonmetal'], ['organic', 'inorganic'], ['renewable', 'nonrenewable'], ['vertebrate', 'invertebrate'],
  ['herbivore', 'carnivore'], ['prokaryote', 'eukaryote'], ['dominant', 'recessive'], ['male', 'female'],
  ['artery', 'vein'], ['dorsal', 'ventral'], ['anterior', 'posterior'], ['diurnal', 'nocturnal'],
  ['north', 'south'], ['east', 'west'], ['northern', 'southern'], ['eastern', 'western'], ['left', 'right'],
  ['clockwise', 'anticlockwise'], ['clockwise', 'counterclockwise'], ['sunrise', 'sunset'],
  ['win', 'lose'], ['won', 'lost'], ['victory', 'defeat'], ['accept', 'reject'], ['allow', 'forbid'],
  ['legal', 'illegal'], ['approve', 'veto'], ['birth', 'death'], ['born', 'died'], ['alive', 'dead'],
  ['ancient', 'modern'], ['true', 'false'], ['correct', 'incorrect'], ['always', 'never'], ['all', 'none'],
  ['hot', 'cold'], ['wet', 'dry'], ['solid', 'liquid'], ['liquid', 'gas'], ['solid', 'gas'], ['light', 'dark'],
  ['light', 'heavy'], ['hard', 'soft'], ['strong', 'weak'], ['fast', 'slow'], ['high', 'low'], ['long', 'short'],
  ['open', 'closed'], ['visible', 'invisible'], ['odd', 'even'], ['prime', 'composite'], ['rational', 'irrational'],
  ['convex', 'concave'], ['voluntary', 'involuntary'], ['import', 'export'], ['rural', 'urban'],
  ['democratic', 'republican'], ['democracy', 'dictatorship'], ['ally', 'enemy'], ['allies', 'axis'],
  ['union', 'confederacy'], ['union', 'confederate'], ['catholic', 'protestant'], ['sunni', 'shia'],
];
