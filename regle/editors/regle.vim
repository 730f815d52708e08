" Vim syntax file for regle rules files (*.rules), made by python -m regle.textmate --vim
if exists("b:current_syntax") | finish | endif
syntax keyword regleKeyword action add again all announce as at bool by capacity cell checkered clear colours columns copy counter deal decisions define detail diagonals disc do draw drop edges ejecting elif else end ensure enum extend figure first for forced from game grid height hex hidden ids if in int into invariant lane lanes least let lines loop mancala marks max most move next notice numbered of on only optional overflow override pair param pass pattern per place player players points private push put quiet random refill reflect remove repeat require reveal rotate score seats secret settle setup shared show shown shuffle side size square standin star step subset table taking then ties to track triangle turn under unordered up values walls when where while wild winner with zone
syntax keyword regleOperator and or not
syntax keyword regleConstant true false none me turns player_count it stuck ended
syntax match regleBuiltin /\<\(abs\|all\|along\|any\|argmax\|argmin\|around\|beside\|blocker\|cell\|cells\|chain\|column\|connected\|content\|count\|die\|directions\|distance\|edge_cells\|empty_cells\|filled_cells\|first\|flanked\|groups\|has\|houses\|in_a_row\|in_a_row_exactly\|is_empty\|lane\|lane_count\|lanes\|largest_zone\|last\|leaps\|liberties\|line\|line_moves\|lines\|max\|min\|neighbour\|neighbours\|number\|opposite\|placements\|position\|random\|ray\|reach\|reachable\|repeated\|ring\|row\|shade\|sides\|since\|slide\|store\|sum\|wall\)\ze\s*(/
syntax match regleNumber /\<\d\+\>/
syntax region regleString start=/"/ skip=/\\./ end=/"/ end=/$/ contains=reglePlaceholder
syntax match reglePlaceholder /{[^{}"]*}/ contained
syntax match regleDoc /\/\/\/.*$/
syntax match regleComment /#.*$/
highlight default link regleKeyword Keyword
highlight default link regleOperator Operator
highlight default link regleConstant Constant
highlight default link regleBuiltin Function
highlight default link regleNumber Number
highlight default link regleString String
highlight default link reglePlaceholder Special
highlight default link regleDoc SpecialComment
highlight default link regleComment Comment
let b:current_syntax = "regle"
