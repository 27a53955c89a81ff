-- Pipelines (extended and prepared modes): ten statements, then a serializable transaction.
\startpipeline
select 1;
select 2;
select 3;
select 4;
select 5;
select 6;
select 7;
select 8;
select 9;
select 10;
\endpipeline
\startpipeline
BEGIN ISOLATION LEVEL SERIALIZABLE;
select 1;
END;
\endpipeline
\set done debug(1)
