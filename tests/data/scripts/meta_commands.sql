-- \gset, \aset, \sleep, \setshell, \shell, nested \if, SQL splitting and substitution (simple mode).
-- test gset
SELECT \gset
SELECT 0 AS i0 \gset
\set i debug(:i0)
SELECT 1 AS i1, 2 AS i2 \gset
\set i debug(:i1)
\set i debug(:i2)
SELECT 3 AS i3 \gset x_
\set i debug(:x_i3)
SELECT 0 AS i4, 4 AS i4 \gset
\set i debug(:i4)
\; \; SELECT 0 AS i5 \; SELECT 5 AS i5 \; \; \gset
\set i debug(:i5)
\; SELECT 6 AS i6 \; SELECT 7 AS i7 \; \aset
SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \aset
\set i debug(:i6)
\set i debug(:i7)
\set zero 0
\set nope 0
\set one 1.0
\sleep :one ms
\sleep 100 us
\sleep 0 s
\sleep :zero
\setshell another_one\
  echo \
    :one
\set n debug(:another_one)
\shell echo shell-echo-output
\if 1 > 0
\set id debug(65)
\elif 0
\set nope 1
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 > 0
\set ie debug(74)
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 < 0
\set nope 1
\else
\if 0
\set nope 2
\elif 1
\set deep debug(85)
\endif
\set if debug(83)
\endif
\set nope debug(:nope)
select 'x:one' as s, :one::text as t, $$ ; :one $$ as u \gset
\set s debug(:t)
SELECT 1;select 2; SELECT 3 AS three \gset
\set q debug(:three)
DO $$
BEGIN
  PERFORM 1;
END $$;
select 1 -- a comment; not the end
  ;
