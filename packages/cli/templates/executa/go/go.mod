module {{slug}}

go 1.19
