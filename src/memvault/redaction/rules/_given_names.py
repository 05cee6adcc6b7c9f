"""Common given names, by language or region, for finding names in running text.

Each region holds the given names most often given there, as they are written in
running text (with their diacritics, and in each script the region writes).
Names that are also everyday words, months, places, brands or products in the
languages the filter reads ("May", "Will", "Victoria", "Chase", "Mercedes") are left
out: a given name alone is the only cue these rules have, so it must rarely be
anything else. :data:`GIVEN_NAMES` is the union, less those.
"""

from __future__ import annotations


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# English: United Kingdom, Ireland, United States, Canada, Australia, New Zealand.
ENGLISH = _names("""
    Josephine Priscilla Garrett Everett Desmond Gideon Rosalind Wendell Marjorie Mildred
    Dorothy Virginia Ruth Mabel Edith Agnes Ethel Irene Bernice Lorraine Geraldine Beatrice
    Clarence Howard Herbert Leonard Stanley Ernest Frederick Norman Vernon Lloyd Clifford
    Marvin Leroy Glenn Warren Curtis Travis Dustin Corey Derrick Marcus Malcolm Terrence
    Darnell DeShawn Tyrone Jamal Latoya Tamika Keisha Shanice Monique Jasmine Brianna
    Kaitlyn Caitlin Brittney Courtney Whitney Lindsay Lindsey Kristen Kristin Erin Tara
    Vanessa Veronica Valerie Yvonne Colleen Maureen Bridget Rosemary Winifred Gwendolyn
    Reginald Rupert Percival Cecil Basil Clive Geoffrey Giles Jeremy Julian Miles Oscar
    Felicity Philippa Penelope Rosamund Clementine Arabella Henrietta Tabitha Cordelia
    Everett Silas Jasper Ezra Asher Declan Rowan Emmett Wyatt Levi Grayson Brody Colton
    James John Robert Michael David William Richard Joseph Thomas Charles Christopher Daniel
    Matthew Anthony Donald Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy Ronald
    Edward Jason Jeffrey Ryan Jacob Gary Nicholas Eric Jonathan Stephen Larry Justin Scott
    Brandon Benjamin Samuel Gregory Alexander Patrick Raymond Jack Dennis Jerry Tyler Aaron
    Jose Adam Nathan Henry Douglas Zachary Peter Kyle Noah Ethan Jeremy Walter Christian Keith
    Roger Terry Harold Sean Gerald Carl Arthur Lawrence Dylan Jesse Jordan Bryan Billy Bruce
    Gabriel Joe Logan Albert Willie Alan Eugene Russell Vincent Philip Bobby Johnny Bradley
    Oliver Harry Charlie Oscar Leo Alfie Freddie Archie Theo Isaac Joshua Edward Liam Lucas
    Elijah Mason Owen Caleb Nolan Connor Callum Jamie Declan Ciaran Niamh Aoife Siobhan Sinead
    Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Betty
    Sandra Margaret Ashley Kimberly Emily Donna Michelle Carol Amanda Melissa Deborah Stephanie
    Rebecca Sharon Laura Cynthia Kathleen Amy Angela Shirley Brenda Emma Anna Pamela Nicole
    Samantha Katherine Christine Helen Debra Rachel Carolyn Janet Maria Catherine Heather
    Diane Olivia Julie Joyce Evelyn Kelly Christina Lauren Joan Judith Megan Andrea Cheryl
    Hannah Jacqueline Martha Gloria Teresa Ann Sara Madison Frances Kathryn Janice Jean Abigail
    Alice Judy Sophia Denise Amber Doris Marilyn Danielle Beverly Isabella Theresa Diana
    Natalie Brittany Charlotte Marie Kayla Alexis Lori Amelia Isla Ava Mia Poppy Ella Freya
    Evie Florence Harriet Imogen Phoebe Matilda Eleanor Chloe Sophie Lucy Zoe Holly Jasmine
    Ellie Abbie Bethany Georgina Lydia Fiona Kirsty Gemma Claire Louise Joanne Tracey Dawn
    Wendy Gillian Alison Maureen Eileen Bridget Siobhan Colm Eoin Padraig Cormac Ruairi
    Graham Nigel Trevor Malcolm Gordon Ian Neil Stuart Craig Alistair Hamish Duncan Angus
    Barry Colin Derek Gareth Rhys Dafydd Emrys Gwen Bronwen Cerys Megan Sian
    Bruce Kylie Shane Wayne Darren Brett Troy Cameron Mitchell Lachlan Hayden Jarrah Kirra
""")

# English as given in South Africa, Nigeria and India, with the names those countries
# share with the rest of the English-speaking world left to :data:`ENGLISH`.
ENGLISH_ELSEWHERE = _names("""
    Johan Pieter Hendrik Jacobus Willem Francois Gerrit Riaan Ruan Werner Anele Thandiwe
    Chidi Tunde Emeka Segun Olumide Kehinde Taiwo Tolu Funmi Yemi Bisi Sade Chinedu
    Rohan Rahul Vikram Arjun Neha Priya Pooja Divya Sneha Anjali Kavya Sanjay Vijay Ajay
    Joseph Thomas Mathew Jacob Abraham Varghese Cherian Philip Jose Shaji Biju Sunil Anil
""")

# German: Germany, Austria, Switzerland.
GERMAN = _names("""
    Hartmut Annegret Gottfried Siegfried Hermann Heinrich Ernst Erich Gustav Alfred Rudolf
    Adolf Egon Armin Detlef Eckhard Gerd Hubert Lothar Roland Wilfried Winfried Ulf Arnd
    Burkhard Hansjörg Karl-Heinz Hans-Peter Hans-Jürgen Klaus-Dieter Bärbel Edeltraud
    Gertraud Hedwig Margarete Elfriede Ingeborg Roswitha Sieglinde Heidrun Annemarie
    Marlies Henrike Wiebke Friederike Ulrike Gesine Almut Dörte Imke Mareike Anneliese
    Jutta Mechthild Ottilie Cäcilie Walburga Gundula Uta Heidi Birte Maren Nele Merle
    Alexander Andreas Bernd Christian Christoph Daniel David Dennis Dieter Dirk Dominik Florian
    Frank Friedrich Georg Gerhard Günter Günther Hans Harald Heinz Helmut Holger Horst Ingo
    Jan Jens Joachim Jochen Johannes Jonas Jörg Jürgen Kai Karl Klaus Lars Leon Lukas Lutz
    Manfred Marcel Marco Mario Markus Martin Matthias Max Maximilian Michael Moritz Niklas
    Nils Norbert Oliver Patrick Paul Peter Philipp Rainer Ralf Reinhard Rolf Rüdiger Sascha
    Sebastian Simon Stefan Steffen Stephan Sven Thomas Thorsten Tim Tobias Torsten Udo Ulrich
    Uwe Volker Walter Werner Wolfgang Felix Finn Elias Emil Anton Theo Henry Ben Luca Noah
    Jakob Julian Fabian Benedikt Konstantin Valentin Leopold Ludwig Fritz Kurt Otto Wilhelm
    Andrea Angelika Anja Anke Anna Annette Antje Barbara Bettina Birgit Brigitte Carina
    Christa Christiane Christina Christine Claudia Cornelia Daniela Doris Elke Elisabeth
    Erika Eva Franziska Gabriele Gisela Hannelore Heike Helga Ilse Ingrid Iris Jana Jennifer
    Jessica Johanna Julia Jutta Karin Katharina Kathrin Katrin Kerstin Laura Lea Lena Lisa
    Manuela Maria Marion Martina Melanie Michaela Monika Nadine Nicole Petra Renate Sabine
    Sandra Sarah Silke Simone Sonja Stefanie Susanne Tanja Ursula Ute Vanessa Yvonne
    Emilia Mila Lina Ella Clara Leonie Marie Sophie Charlotte Hannah Mia Emma Frieda Greta
    Ida Luise Mathilda Paula Magdalena Theresa Veronika Hildegard Gertrud Irmgard Waltraud
    Dagmar Gudrun Sigrid Rosemarie Liselotte Annika Svenja Wiebke Inga Frauke Kirsten Meike
""")

# French: France, Belgium, Switzerland, Quebec, francophone Africa.
FRENCH = _names("""
    Gérald Armand Bertrand Gaston Gustave Honoré Lucien Marius Maurice Octave Raymond René
    Roger Georges Émile Fernand Albert Léon Edmond Félix Gilbert Hippolyte Jacques-Henri
    Ghislaine Huguette Jocelyne Lucienne Marcelle Micheline Paulette Simone Yvette Colette
    Bernadette Christiane Denise Éliane Geneviève Germaine Henriette Josette Madeleine
    Jean Pierre Michel André Philippe Alain Bernard Jacques Daniel Patrick Christian Nicolas
    François Éric Eric Christophe Frédéric Laurent Stéphane Olivier Pascal Sébastien Thierry
    Julien David Dominique Guillaume Vincent Jérôme Thomas Antoine Mathieu Maxime Alexandre
    Romain Nicolas Benoît Didier Gérard Gilles Henri Hervé Hugues Jean-Pierre Jean-Paul
    Jean-Luc Jean-Marc Jean-François Jean-Claude Jean-Louis Jean-Michel Louis Luc Marc
    Marcel Mathis Matthieu Raphaël Rémi Rémy Serge Sylvain Thibault Théo Timothée Tristan
    Xavier Yann Yannick Yves Adrien Arnaud Baptiste Bastien Clément Cédric Damien Fabien
    Florian Gaëtan Hugo Jules Kévin Loïc Lucas Ludovic Mickaël Nathan Quentin Simon Enzo
    Gabriel Arthur Léo Louis Raphaël Maël Noé Sacha Paul Aurélien Étienne Emmanuel Lionel
    Marie Nathalie Isabelle Sylvie Catherine Françoise Christine Monique Valérie Sandrine
    Véronique Nicole Sophie Stéphanie Céline Chantal Patricia Anne Brigitte Julie Aurélie
    Caroline Émilie Emilie Camille Claire Léa Manon Chloé Sarah Laura Pauline Mathilde Lucie
    Marion Élodie Elodie Audrey Amandine Mélanie Virginie Hélène Delphine Martine Jacqueline
    Danielle Michèle Josiane Ginette Odile Agnès Béatrice Corinne Florence Laurence Karine
    Séverine Vanessa Charlotte Juliette Louise Jade Alice Inès Léna Zoé Lina Mila Ambre
    Anaïs Clémence Margaux Océane Justine Élise Éloïse Agathe Gabrielle Adèle Capucine
    Solène Maëlle Noémie Gaëlle Morgane Aurore Coralie Estelle Fanny Géraldine Mireille
""")

# Spanish: Spain and Latin America.
SPANISH = _names("""
    Consuelo Eusebio Marcelino Aurelio Bernardo Casimiro Ceferino Clemente
    Desiderio Eladio Eugenio Evaristo Faustino Feliciano Florencio Gregorio Inocencio
    Isidro Leandro Lisandro Macario Nicanor Pascual Primitivo Remigio Saturnino Teodoro
    Valeriano Wenceslao Zacarías Abel Benito Ciro Dámaso Fidel Gilberto Humberto Leopoldo
    Amparo Araceli Asunta Begoña Candela Carmela Celia Chelo Concha Edurne Elvira Emilia
    Esperanza Estela Filomena Gema Herminia Ileana Josefina Leonor Lidia Macarena Maite
    Marisa Matilde Milagros Nerea Olga Pepa Purificación Remedios Rosalía Rosario Tamara
    Antonio José Manuel Francisco David Juan Javier Daniel Carlos Jesús Alejandro Miguel
    Rafael Pedro Pablo Ángel Sergio Fernando Jorge Luis Alberto Álvaro Adrián Diego Raúl
    Enrique Ramón Vicente Andrés Joaquín Santiago Víctor Eduardo Roberto Jaime Mario Rubén
    Óscar Ignacio Alfonso Marcos Hugo Iván Gonzalo Guillermo Emilio Salvador Julio Julián
    Agustín Tomás Nicolás Martín Lucas Mateo Leo Marco Gabriel Felipe Esteban Rodrigo
    Gustavo Ricardo Héctor Arturo Alfredo Ernesto Rodolfo Armando Gerardo Fabián Sebastián
    Cristian Cristóbal Mauricio Patricio Gastón Facundo Lautaro Thiago Benjamín Matías
    Emiliano Leonardo Maximiliano Bruno Ignacio Hernán Horacio Osvaldo Rogelio Ulises
    María Carmen Josefa Isabel Ana Laura Cristina Marta Francisca Lucía Antonia Elena Sara
    Paula Raquel Manuela Beatriz Rocío Teresa Julia Patricia Alba Irene Andrea Silvia
    Nuria Inmaculada Montserrat Mónica Sonia Marina Rosa Encarnación Yolanda Sandra Ángela
    Natalia Alicia Susana Margarita Eva Sofía Claudia Noelia Esther Verónica Carla Lorena
    Inés Ainhoa Aitana Martina Valeria Ximena Camila Valentina Daniela Mariana Gabriela
    Fernanda Florencia Agustina Micaela Guadalupe Catalina Renata Regina Paola Adriana
    Alejandra Liliana Leticia Gloria Graciela Silvina Luciana Romina Marisol Mercedes
    Jimena Lourdes Estefanía Itziar Ainara Iker Unai Aitor Asier Gorka Eneko Jon Mikel Oier
""")

# Portuguese: Portugal and Brazil.
PORTUGUESE = _names("""
    Edivaldo Rosângela Tainá Adriano Anselmo Aurélio Benedito Cícero Edson Elias Evandro
    Everaldo Gilberto Gilmar Jair Jefferson Josué Moacir Nelson Osvaldo Reinaldo Ronaldo
    Valdemar Vanderlei Wilson Aparecida Cleide Creusa Eliane Elisângela Fabiana Gisele
    Ivone Jaqueline Kátia Lucélia Marlene Neide Regina Rosana Sueli Terezinha Vânia
    João José António Antônio Francisco Manuel Carlos Paulo Pedro Luís Luiz Jorge Miguel
    Rui Nuno Tiago Diogo Duarte Gonçalo Rodrigo Afonso Martim Santiago Tomás Guilherme
    Gabriel Lucas Matheus Mateus Rafael Felipe Gustavo Leonardo Bruno Eduardo Marcelo
    Fernando Ricardo Rodrigo Thiago Vinícius Vitor Vítor Fábio André Alexandre Daniel
    Henrique Caio Enzo Heitor Bernardo Davi Lorenzo Samuel Arthur Benício Joaquim Sebastião
    Raimundo Sérgio Márcio Marcos Cláudio Leandro Renato Rogério Wagner Wellington Anderson
    Maria Ana Francisca Antônia Adriana Juliana Márcia Fernanda Patrícia Aline Sandra
    Camila Amanda Bruna Jéssica Letícia Júlia Luciana Vanessa Mariana Gabriela Beatriz
    Larissa Natália Rafaela Bianca Carolina Débora Sabrina Tatiana Cristiane Simone Renata
    Isabela Isabel Laura Manuela Alice Helena Valentina Sophia Lívia Heloísa Lorena Cecília
    Inês Leonor Matilde Carolina Margarida Joana Rita Sofia Catarina Teresa Filipa Raquel
    Sónia Susana Cláudia Andreia Vera Paula Sara Mónica Conceição Fátima Rosário Lúcia
""")

# Italian.
ITALIAN = _names("""
    Alfonso Amedeo Arturo Benedetto Corrado Cosimo Ernesto Fulvio Gianfranco Gianpaolo
    Giampiero Guido Ignazio Lamberto Marcello Mauro Ottavio Renato Rinaldo Saverio Vittorio
    Agnese Assunta Benedetta Carolina Cinzia Elisabetta Fiorella Gianna Ida Lorenza Luisa
    Marisa Mirella Nadia Ornella Piera Raffaella Rosaria Sabrina Vanna Viola Virginia
    Giuseppe Giovanni Antonio Mario Luigi Francesco Angelo Vincenzo Pietro Salvatore Carlo
    Franco Domenico Bruno Paolo Michele Giorgio Giancarlo Sergio Luciano Roberto Stefano
    Andrea Marco Alessandro Matteo Lorenzo Leonardo Riccardo Davide Simone Federico Gabriele
    Tommaso Edoardo Filippo Luca Massimo Maurizio Claudio Fabio Enrico Alberto Fabrizio
    Daniele Emanuele Nicola Raffaele Gianluca Gianni Giacomo Mattia Diego Cristian Alessio
    Samuele Manuel Pasquale Gennaro Carmine Rocco Ciro Umberto Ettore Aldo Dario Ivano
    Maria Anna Giuseppina Rosa Angela Giovanna Teresa Lucia Carmela Caterina Francesca
    Antonietta Carla Elena Concetta Rita Margherita Franca Paola Laura Sara Giulia Chiara
    Federica Valentina Silvia Elisa Martina Alessia Roberta Monica Barbara Cristina Daniela
    Simona Alessandra Sofia Aurora Ginevra Beatrice Alice Emma Giorgia Greta Ludovica
    Matilde Vittoria Noemi Arianna Camilla Bianca Serena Ilaria Eleonora Veronica Claudia
    Gabriella Graziella Patrizia Donatella Loredana Tiziana Rossella Stefania Manuela
""")

# Dutch: the Netherlands and Flanders.
DUTCH = _names("""
    Jan Johannes Hendrik Cornelis Willem Pieter Gerrit Jacobus Dirk Hans Peter Kees Klaas
    Henk Joost Bas Bram Daan Sem Lucas Levi Finn Milan Jesse Thijs Ruben Stijn Lars Tim
    Sander Martijn Jeroen Maarten Wouter Niels Koen Rick Tom Bart Erik Frank Marcel Arjan
    Dennis Jasper Thomas Mark Robin Jeroen Rutger Floris Gijs Hugo Joris Luuk Mees Noud
    Wim Ton Theo Gert Geert Sjoerd Arend Freek Mathijs Teun Siem Bente Noor Fenna Sanne
    Maria Johanna Anna Cornelia Wilhelmina Elisabeth Hendrika Geertruida Jacoba Petronella
    Anouk Fleur Lotte Eva Lieke Femke Sophie Julia Emma Tess Saar Zoë Lisa Iris Esmee
    Linda Sandra Marieke Ingrid Annemarie Monique Mirjam Anneke Wilma Ellen Ineke Marleen
    Inge Karin Nicole Kim Manon Roos Floor Veerle Joke Griet Els An Hilde Katrien Lien
""")

# Swedish, Danish, Norwegian and Icelandic.
NORDIC = _names("""
    Lars Anders Johan Per Erik Karl Nils Jan Lennart Mikael Hans Peter Olof Sven Gunnar
    Bengt Björn Magnus Fredrik Stefan Mats Daniel Andreas Henrik Mattias Jonas Marcus
    Oscar Elias William Hugo Liam Alexander Lucas Axel Ludvig Viktor Filip Gustav Emil
    Anton Isak Adam Leo Arvid Albin Linus Rasmus Mads Søren Jens Niels Kasper Frederik
    Jesper Morten Thomas Christian Martin Ole Bjørn Knut Arne Odd Kjell Tor Terje Geir
    Trond Espen Håkon Sindre Eirik Sigurd Magne Steinar Jón Sigurður Guðmundur Gunnar Ólafur
    Anna Eva Maria Karin Kristina Lena Kerstin Sara Emma Ingrid Marie Birgitta Elin Linnea
    Malin Johanna Sofia Hanna Ida Elsa Alice Maja Astrid Wilma Saga Ebba Agnes Freja Klara
    Ingela Annika Ulla Margareta Inger Gunilla Camilla Mette Lene Hanne Susanne Pia Tina
    Kirsten Signe Sofie Nanna Ane Mathilde Frida Nora Thea Ingeborg Solveig Sigrid Kari
    Ragnhild Randi Silje Tone Hege Marit Guðrún Sigríður Kristín Helga Anna Jóhanna
""")

# Finnish.
FINNISH = _names("""
    Juha Timo Matti Kari Mikko Jari Antti Jukka Mika Markku Pekka Hannu Heikki Seppo Janne
    Ari Sami Petri Ville Tuomas Jussi Risto Pertti Esa Lauri Eero Olli Aleksi Joonas
    Onni Eino Väinö Elias Leo Veeti Niilo Aatu Toivo Kalle Teemu Tommi Jani Marko Harri
    Maria Helena Johanna Anneli Kaarina Marjatta Anna Liisa Annikki Hannele Tuula Päivi
    Sari Minna Tiina Riitta Pirjo Anne Leena Kirsi Satu Heidi Laura Elina Sanna Katja
    Aino Eevi Venla Helmi Aada Lilja Ilona Enni Siiri Emilia Ellen Iida Oona Veera
""")

# Polish.
POLISH = _names("""
    Piotr Krzysztof Andrzej Tomasz Paweł Jan Michał Marcin Jakub Adam Marek Łukasz Grzegorz
    Mateusz Wojciech Mariusz Dariusz Zbigniew Jerzy Maciej Rafał Robert Kamil Stanisław
    Janusz Józef Ryszard Tadeusz Jacek Sebastian Dawid Bartosz Szymon Filip Kacper
    Antoni Franciszek Wiktor Aleksander Igor Hubert Oskar Patryk Przemysław Sławomir
    Zdzisław Bogdan Henryk Kazimierz Leszek Mirosław Wiesław Czesław Artur Damian Konrad
    Anna Maria Katarzyna Małgorzata Agnieszka Barbara Ewa Krystyna Elżbieta Magdalena
    Joanna Zofia Monika Teresa Danuta Natalia Aleksandra Karolina Marta Beata Dorota
    Justyna Jadwiga Halina Irena Grażyna Alicja Jolanta Iwona Paulina Renata Sylwia
    Agata Julia Wiktoria Zuzanna Oliwia Maja Hanna Lena Amelia Pola Weronika Martyna
    Kinga Patrycja Izabela Dominika Urszula Bożena Wanda Stanisława Genowefa Jadwiga
""")

# Czech and Slovak.
CZECH_SLOVAK = _names("""
    Jiří Jan Petr Josef Pavel Martin Tomáš Jaroslav Miroslav Zdeněk Václav Michal František
    Jakub Milan Karel Lukáš David Vladimír Ladislav Ondřej Roman Stanislav Marek Radek
    Daniel Antonín Vojtěch Matěj Adam Filip Dominik Šimon Vít Štěpán Ján Jozef Peter Juraj
    Ľubomír Miloš Dušan Marián Matúš Branislav Rastislav Michal Igor Ivan Róbert
    Jana Marie Eva Hana Anna Lenka Kateřina Věra Lucie Alena Petra Jaroslava Veronika
    Martina Tereza Michaela Jitka Helena Ludmila Zdeňka Ivana Monika Eliška Kristýna
    Barbora Klára Adéla Natálie Anežka Viktorie Zuzana Katarína Mária Lucia Jarmila
""")

# Hungarian.
HUNGARIAN = _names("""
    László István József János Zoltán Sándor Gábor Ferenc Attila Péter Tamás Zsolt Tibor
    András Csaba Imre Lajos György Balázs Gyula Mihály Károly Róbert Norbert Dániel Ádám
    Bence Máté Levente Dávid Krisztián Gergely Márton Szabolcs Barnabás Botond Dominik
    Mária Erzsébet Katalin Éva Ilona Anna Zsuzsanna Margit Judit Ágnes Andrea Erika
    Krisztina Edit Gabriella Szilvia Anita Mónika Tímea Eszter Zsófia Réka Dóra Boglárka
    Hanna Luca Lili Jázmin Fanni Nóra Petra Viktória Rozália Piroska Irén Klára Orsolya
""")

# Romanian and Moldovan.
ROMANIAN = _names("""
    Ion Gheorghe Vasile Constantin Alexandru Nicolae Mihai Andrei Ioan Dumitru Florin
    Adrian Daniel Marian Cristian Ionuț Gabriel Ștefan Bogdan Cătălin Răzvan Radu Sorin
    Ciprian Claudiu Dragoș Liviu Ovidiu Petru Tudor Horia Lucian Mircea Octavian Silviu
    Maria Elena Ioana Ana Mihaela Andreea Gabriela Alexandra Cristina Daniela Florentina
    Georgiana Irina Roxana Ramona Simona Loredana Alina Nicoleta Mădălina Raluca Oana
    Bianca Denisa Larisa Iuliana Corina Anca Carmen Rodica Viorica Lucia Aurelia Doina
""")

# Lithuanian, Latvian and Estonian.
BALTIC = _names("""
    Jonas Petras Antanas Juozas Kazimieras Vytautas Mindaugas Tomas Darius Andrius Gintaras
    Saulius Rimantas Žygimantas Dovydas Lukas Matas Nojus Jānis Andris Māris Juris Edgars
    Artūrs Kārlis Mārtiņš Raivis Toms Roberts Rein Toomas Jaan Andres Tarmo Urmas Priit
    Rasa Ona Jurgita Rūta Laura Ieva Kristina Inga Aistė Gabija Austėja Emilija Urtė
    Anna Inese Ilze Kristīne Līga Dace Sandra Anita Aija Elīna Marta Katrin Tiina Kadri
    Triin Liis Kristiina Piret Maarja Mari Kertu
""")

# Slovene, Croatian, Bosnian, Serbian and Macedonian in the Latin alphabet.
SOUTH_SLAVIC = _names("""
    Marko Ivan Luka Petar Stefan Nikola Miloš Aleksandar Dragan Zoran Goran Milan Branko
    Dejan Nenad Srđan Vladimir Bojan Dušan Željko Zlatko Tomislav Ante Josip Mate Stjepan
    Krešimir Hrvoje Damir Dario Davor Mladen Mirko Slobodan Vuk Filip Lazar Janez Matej
    Jure Rok Žiga Blaž Anže Gašper Emir Amir Adnan Edin Haris Kenan Mirza Senad
    Ana Maja Jelena Marija Ivana Milica Snežana Dragana Tanja Vesna Mirjana Gordana
    Jasmina Biljana Marina Katarina Kristina Nataša Petra Lucija Ema Mia Lana Nika
    Sara Tea Lea Petra Vanja Andreja Mojca Špela Urška Nina Tina Amra Lejla Selma Emina
""")

# Greek, in the Greek alphabet and transliterated.
GREEK = _names("""
    Γιώργος Γεώργιος Κώστας Κωνσταντίνος Γιάννης Ιωάννης Δημήτρης Δημήτριος Νίκος Νικόλαος
    Παναγιώτης Βασίλης Βασίλειος Χρήστος Αθανάσιος Θανάσης Μιχάλης Μιχαήλ Ευάγγελος
    Σπύρος Αντώνης Αλέξανδρος Σταύρος Πέτρος Ανδρέας Θεόδωρος Στέλιος Ηλίας Άγγελος
    Μαρία Ελένη Αικατερίνη Κατερίνα Βασιλική Σοφία Αγγελική Γεωργία Δήμητρα Κωνσταντίνα
    Παρασκευή Ευαγγελία Ιωάννα Χριστίνα Αναστασία Ειρήνη Δέσποινα Φωτεινή Νίκη Αλεξάνδρα
    Giorgos Georgios Kostas Konstantinos Giannis Yannis Ioannis Dimitris Dimitrios Nikos
    Nikolaos Panagiotis Vasilis Vasileios Christos Athanasios Thanasis Michalis Evangelos
    Spyros Antonis Stavros Petros Andreas Theodoros Stelios Ilias Angelos Yiannis Kyriakos
    Eleni Aikaterini Katerina Vasiliki Sofia Angeliki Dimitra Konstantina Paraskevi
    Evangelia Ioanna Christina Anastasia Eirini Irini Despoina Foteini Niki Alexandra
""")

# Russian, Ukrainian, Belarusian, Bulgarian and Serbian, in Cyrillic.
CYRILLIC = _names("""
    Александр Алексей Андрей Антон Артём Артем Борис Вадим Валентин Валерий Василий Виктор
    Виталий Владимир Владислав Вячеслав Геннадий Георгий Григорий Даниил Денис Дмитрий
    Евгений Егор Иван Игорь Илья Кирилл Константин Леонид Максим Михаил Никита Николай
    Олег Павел Пётр Петр Роман Руслан Сергей Станислав Степан Тимур Фёдор Федор Юрий
    Ярослав Богдан Тарас Остап Олександр Андрій Сергій Дмитро Микола Василь Іван Юрій
    Георги Димитър Христо Стоян Тодор Никола Марко Милош Драган Зоран Горан Стефан
    Александра Алина Алла Анастасия Анна Валентина Валерия Вера Виктория Галина Дарья
    Евгения Екатерина Елена Елизавета Жанна Зоя Ирина Кристина Ксения Лариса Лидия
    Любовь Людмила Маргарита Марина Мария Надежда Наталья Нина Оксана Ольга Полина
    Светлана Софья София Тамара Татьяна Юлия Яна Олена Оксана Наталія Марія Ганна
    Тетяна Юлія Ірина Катерина Іванка Соломія Десислава Йорданка Милица Јелена Ивана
""")

# Russian, Ukrainian and Bulgarian names transliterated into the Latin alphabet.
CYRILLIC_LATIN = _names("""
    Aleksandr Alexander Aleksey Alexey Andrey Andrei Anton Artem Artyom Boris Vadim Valery
    Vasily Viktor Vitaly Vladimir Vladislav Vyacheslav Gennady Georgy Grigory Daniil Denis
    Dmitry Dmitri Evgeny Yevgeny Egor Yegor Igor Ilya Kirill Konstantin Leonid Maxim Maksim
    Mikhail Nikita Nikolai Nikolay Oleg Pavel Pyotr Roman Ruslan Sergey Sergei Stanislav
    Timur Fyodor Yuri Yury Yaroslav Oleksandr Andriy Serhiy Dmytro Mykola Vasyl Taras Ostap
    Volodymyr Oleksiy Yuriy Bohdan Hristo Dimitar Stoyan Todor Georgi Ivaylo Plamen
    Aleksandra Alina Alla Anastasia Anastasiya Valentina Valeria Galina Darya Daria Evgenia
    Ekaterina Yekaterina Elena Yelena Elizaveta Irina Kristina Ksenia Kseniya Larisa Lidia
    Lyudmila Ludmila Margarita Marina Nadezhda Natalya Natalia Nina Oksana Olga Polina
    Svetlana Sofya Tamara Tatiana Tatyana Yulia Yuliya Olena Nataliya Hanna Tetiana
    Kateryna Iryna Solomiya Desislava Yordanka Tsvetana Radka Gergana Silviya
""")

# Turkish and Azerbaijani.
TURKISH = _names("""
    Mehmet Mustafa Ahmet Ali Hüseyin Hasan İbrahim İsmail Osman Yusuf Murat Ömer Ramazan
    Halil Süleyman Abdullah Mahmut Recep Salih Fatih Kadir Emre Burak Serkan Hakan Volkan
    Onur Tolga Kerem Cem Berk Arda Eren Efe Emir Yiğit Kaan Barış Umut Tuncay Sinan Selim
    Oğuz Oğuzhan Erkan Gökhan Orhan Levent Kemal Cengiz Doğan Uğur Ercan Erdem Tarık
    Fatma Ayşe Emine Hatice Zeynep Elif Meryem Şerife Zehra Sultan Hanife Merve Özlem
    Esra Yasemin Büşra Kübra Ebru Derya Gül Gülsüm Songül Sevgi Sibel Aysel Aylin Ayşegül
    Burcu Ceren Cansu Damla Defne Dilek Ecrin Eda Elif Esin Gizem İrem Melek Nazlı Nur
    Pınar Selin Seda Sena Şeyma Tuğba Zehra Nurcan Leyla Aynur Gülay Filiz Hülya
""")

# Arabic names in Latin transliteration, in their common spellings.
ARABIC = _names("""
    Mohammed Muhammad Mohamed Mohammad Muhammed Ahmed Ahmad Ali Omar Umar Abdullah Abdallah
    Abdul Abdulrahman Abdelrahman Abdulaziz Youssef Yousef Yusuf Ibrahim Khalid Khaled Hassan
    Hasan Hussein Husain Hussain Mahmoud Mahmud Mustafa Mostafa Saleh Salah Tariq Tarek
    Karim Kareem Samir Sameer Walid Waleed Faisal Fahad Fahd Nasser Nasir Rashid Rachid
    Hamza Bilal Ziad Ziyad Majid Majed Jamal Adel Adil Amr Amir Ayman Anas Osama Usama
    Sami Hisham Hesham Imad Emad Nabil Nadir Nader Yasser Yasir Marwan Mazen Fadi Rami
    Said Saeed Sultan Hamad Hamdan Mansour Mansur Zayed Othman Uthman Idris Ismail Yahya
    Fatima Fatma Aisha Aysha Khadija Maryam Mariam Zainab Zaynab Layla Leila Laila Nour
    Noor Huda Hoda Amira Ameera Yasmin Yasmine Jasmin Salma Sara Sarah Rania Reem Rim
    Hana Hanan Lina Dina Rana Nadia Nadia Samira Sameera Souad Suad Mona Muna Hind Asma
    Amal Iman Eman Lubna Dalia Ghada Nawal Nisreen Nesrine Rasha Rawan Shaima Wafa Widad
    Zahra Zahraa Malak Jana Lamia Latifa Haifa Basma Nada Aya Hajar Bushra Karima Naima
""")

# Persian (Iran, Afghanistan, Tajikistan), in Latin transliteration.
PERSIAN = _names("""
    Mohammad Ali Reza Alireza Hossein Hassan Mehdi Amir Hamid Saeed Majid Behrouz Behzad
    Babak Bahram Dariush Dariusz Farhad Farid Farzad Hamed Hooman Houman Javad Kamran
    Kaveh Kourosh Koorosh Mahmoud Masoud Mehran Mehrdad Milad Mojtaba Morteza Mostafa
    Nima Omid Payam Pouya Ramin Reza Saman Sina Siavash Soroush Shahram Shahin Vahid
    Arash Arman Aryan Ehsan Mahdi Navid Parviz Parsa Peyman Pedram Ahmad Mansour Hamidreza
    Fatemeh Zahra Maryam Masoumeh Zeinab Sara Narges Mahsa Mina Parisa Fariba Farzaneh
    Leila Shirin Nazanin Niloufar Niloofar Roya Samira Sepideh Shabnam Shahla Simin
    Soraya Tahmineh Yasaman Azadeh Ladan Mahnaz Mitra Nasrin Parvin Pari Golnaz Haleh
    Elham Elnaz Hoda Marjan Mehri Negin Negar Neda Setareh Shiva Taraneh Bahareh Forough
""")

# Hebrew names, in the Hebrew alphabet and transliterated.
HEBREW = _names("""
    David Moshe Yosef Avraham Yaakov Yitzhak Shlomo Daniel Michael Eitan Ariel Noam Omer
    Itai Itay Yonatan Jonathan Amit Guy Ido Uri Yuval Eyal Oren Ofer Ronen Gilad Nadav
    Elad Shai Tomer Roi Assaf Asaf Avi Ben Dan Doron Gideon Haim Chaim Meir Menachem
    Nir Ron Shimon Tzvi Zvi Yehuda Yoav Ehud Amir Alon Lior Matan Nati Boaz Erez Yair
    Sarah Rachel Rivka Leah Miriam Esther Hannah Noa Tamar Maya Shira Yael Michal Efrat
    Adi Inbal Keren Liat Limor Merav Orit Osnat Ronit Sigal Talia Tali Hila Einat Galit
    Dana Dafna Naama Noga Roni Shani Yarden Avital Ayelet Hadas Hagit Irit Neta Ofra
    דוד משה יוסף אברהם יעקב יצחק שלמה דניאל מיכאל איתן אריאל נועם עומר יונתן עמית
    יובל אייל אורן עופר רונן גלעד נדב אלעד טומר אסף אבי דורון גדעון חיים מאיר מנחם
    שמעון יהודה יואב אלון ליאור מתן בועז ארז יאיר
    שרה רחל רבקה לאה מרים אסתר חנה נועה תמר מאיה שירה יעל מיכל אפרת ענבל קרן ליאת
    לימור מירב אורית אסנת רונית סיגל טליה הילה עינת גלית דנה דפנה נעמה נגה רוני שני
    אביטל איילת הדס חגית עירית נטע עפרה
""")

# India: Hindi, Marathi, Gujarati, Punjabi, Bengali, Tamil, Telugu, Kannada and
# Malayalam names as they are written in English.
INDIAN = _names("""
    Aarav Aditya Ajay Akash Amit Amitabh Anand Anil Ankit Anuj Arjun Arun Arvind Ashok
    Ashish Deepak Dinesh Ganesh Gaurav Harish Hemant Jitendra Kamal Karan Kishore Krishna
    Kunal Lalit Mahesh Manish Manoj Mohan Mukesh Naresh Naveen Nikhil Nitin Pankaj Pawan
    Pradeep Prakash Pranav Prashant Praveen Rahul Rajesh Rajiv Rakesh Ramesh Ravi Rohit
    Sachin Sandeep Sanjay Santosh Satish Saurabh Shankar Shiv Shyam Siddharth Sunil Suresh
    Tarun Uday Varun Vijay Vikas Vikram Vinay Vinod Vishal Vivek Yash Yogesh Abhishek Aman
    Harsh Kartik Ishaan Vihaan Reyansh Ayaan Atharv Kabir Dhruv Gurpreet Harpreet Jaspreet
    Manpreet Gurmeet Amarjit Baljit Sukhwinder Rajinder Arnab Abhijit Debashish Indranil
    Partha Sourav Subhash Sudipta Tapas Animesh Soumya Anirban Karthik Arun Senthil
    Murugan Saravanan Venkatesh Srinivas Srinivasan Ramesh Balaji Ganesan Rajkumar Sathish
    Aishwarya Ananya Anita Anjali Ankita Anushka Aparna Archana Aarti Bhavna Deepa Deepika
    Divya Gayatri Geeta Isha Jyoti Kavita Kajal Komal Lakshmi Madhuri Manisha Meena Meera
    Megha Neha Nikita Nisha Pallavi Pooja Poonam Preeti Priya Priyanka Radha Rekha Ritu
    Riya Sakshi Sangeeta Seema Shalini Shilpa Shreya Shruti Sneha Sonal Sunita Swati
    Tanvi Usha Vandana Varsha Aadhya Saanvi Diya Anika Myra Kiara Ira Navya Avni Sara
    Bipasha Moumita Paromita Sharmila Sudeshna Tanusree Rituparna Lavanya Kavya Revathi
    Saranya Meenakshi Padma Vasanthi Janani Harini Divyashree Kaveri Shobha Sushma Simran
""")

# Malay, Indonesian and Bruneian.
MALAY_INDONESIAN = _names("""
    Ahmad Muhammad Mohd Mohamad Abdul Aziz Azman Faizal Faisal Hafiz Hakim Hamzah Hassan
    Ismail Kamal Khairul Mazlan Nor Rahman Razak Rizal Roslan Shahrul Syafiq Zulkifli
    Amir Aiman Danial Haziq Irfan Iskandar Luqman Nabil Najib Rashid Ridzuan Farid
    Budi Agus Bambang Joko Slamet Eko Hadi Dedi Hendra Rudi Andi Arif Rizky Dimas Fajar
    Bayu Wahyu Yudi Teguh Putra Adi Iwan Irwan Gilang Reza Dani Yoga Aditya Fikri Galih
    Siti Nur Nurul Aisyah Fatimah Zainab Aminah Noraini Norhayati Rohani Rosmah Salmah
    Farah Aina Alya Amira Aqilah Balqis Hani Izzati Nadia Nabila Syafiqah Syazwani
    Dewi Sri Ayu Wulan Indah Lestari Rina Ratna Sari Fitri Dian Intan Kartika Maya Mega
    Novi Rini Tari Yuni Wati Endang Ani Ningsih Purnama Anisa Annisa Aulia Citra Dinda
""")

# The Philippines.
FILIPINO = _names("""
    Jose Juan Antonio Pedro Manuel Francisco Roberto Ricardo Rodrigo Eduardo Fernando
    Ramon Rogelio Romeo Reynaldo Renato Rolando Danilo Ernesto Arnel Jonel Mark Jomar Jerome
    Paolo Miguel Carlo Rafael Gabriel Nathaniel Christian Kenneth Jericho Jayson Marvin
    Raymond Rommel Dante Efren Leandro Bienvenido Teodoro Emmanuel Jun-Jun Bong
    Maria Rosario Ana Teresita Josefina Remedios Corazon Luzviminda Marites Maricel Marilou
    Rowena Lorna Lourdes Imelda Cristina Jocelyn Rosalinda Analyn Mary-Ann Ma. Princess
    Angelica Kristine Jasmine Nicole Camille Bea Andrea Patricia Sheila Riza Rhea Gemma
""")

# East Africa: Kenya, Tanzania, Uganda, Rwanda, Ethiopia; Swahili and neighbouring names.
EAST_AFRICAN = _names("""
    Juma Baraka Hamisi Omari Rashidi Salim Bakari Mwangi Kamau Otieno Ochieng Odhiambo
    Onyango Kiprop Kipchoge Kibet Kiptoo Cheruiyot Mutua Musyoka Wanjiru Njoroge Kariuki
    Mugisha Kato Ssemakula Okello Tumusiime Habimana Niyonzima Uwimana Abebe Tesfaye
    Girma Bekele Haile Dawit Yohannes Alemayehu Mulugeta Solomon Tadesse Kebede
    Amani Imani Neema Zawadi Rehema Mwanaisha Halima Mwajuma Saida Wanjiku Nyambura
    Wambui Akinyi Atieno Achieng Adhiambo Awino Chebet Jepkosgei Jeptoo Nafula Nekesa
    Nakato Nabirye Namukasa Uwase Ishimwe Mukamana Tigist Meseret Selam Hirut Almaz Genet
""")

# West Africa: Yoruba, Igbo and Hausa names; Ghanaian day names.
WEST_AFRICAN = _names("""
    Adebayo Adewale Adekunle Ayodele Babatunde Olusegun Oluwaseun Olumide Oluwafemi Femi
    Tunde Tunji Kunle Dapo Gbenga Jide Lanre Wale Yinka Tobi Damilola Ayomide Kolawole
    Chukwuemeka Chinedu Chidi Chukwudi Emeka Ikenna Obinna Nnamdi Uchenna Ifeanyi Kelechi
    Chibuike Chinonso Ebuka Tochukwu Onyeka Azubuike Okechukwu Nkem Obiora
    Abubakar Aminu Bello Garba Ibrahim Musa Sani Umaru Usman Yakubu Haruna Lawal Shehu
    Abdullahi Danjuma Nasiru Sadiq Kwame Kofi Kojo Kwabena Kwaku Yaw Kwasi Kwesi
    Folake Funmilayo Funke Bukola Bisola Yetunde Titilayo Temitope Tolulope Oluwakemi
    Adaeze Adanna Amaka Chiamaka Chinwe Chioma Ebere Ifeoma Ngozi Nkechi Nneka Obioma
    Uchechi Uju Zainab Aisha Hadiza Halima Hauwa Maryam Amina Fatima Rukayat Kemi
    Abena Akosua Adwoa Ama Afua Yaa Efua Akua Esi
""")

# South Africa, Zimbabwe, Botswana: Nguni, Sotho and Tswana names, and Afrikaans.
SOUTHERN_AFRICAN = _names("""
    Thabo Sipho Themba Bongani Mandla Sibusiso Lwazi Lungile Mpho Tshepo Kagiso Katlego
    Lebogang Karabo Tumelo Thulani Nkosinathi Siyabonga Vusi Xolani Zola Tendai Tinashe
    Tatenda Farai Kudakwashe Blessing Nomvula Nomsa Thandeka Thandi Zanele Zodwa Nandi
    Naledi Lerato Palesesa Palesa Dineo Refilwe Boitumelo Keabetswe Nthabiseng Lindiwe
    Busisiwe Nokuthula Ntombi Precious Rutendo Chipo Nyasha Tsitsi Ruvimbo
    Annelie Marietjie Elmarie Anri Elna Riana Karlien Liezel Lizelle Wilna
""")

# Vietnamese given names, with and without their tone marks; they stand before the
# family name in text written in Western order ("Minh Nguyen").
VIETNAMESE = _names("""
    Anh Bảo Bao Cường Cuong Dũng Dung Đức Duc Dương Duong Hải Hai Hiếu Hieu Hòa Hoa
    Hoàng Hoang Hùng Hung Huy Khánh Khanh Khoa Kiên Kien Lâm Lam Lộc Loc Mạnh Manh Minh
    Nghĩa Nghia Nhân Nhan Phong Phúc Phuc Quân Quan Quang Sơn Thắng Thang Thành Thanh
    Thịnh Thinh Toàn Toan Trí Tri Trung Tuấn Tuan Tùng Tung Việt Viet Vinh Vũ
    Chi Diệp Diep Giang Hà Hằng Hang Hạnh Hanh Hiền Hien Hoa Hồng Hong Hương Huong
    Huyền Huyen Lan Liên Lien Linh Loan Ly Mỹ My Ngân Ngan Ngọc Ngoc Nhung Oanh Phương
    Phuong Quỳnh Quynh Thảo Thao Thủy Thuy Trang Trinh Tuyết Tuyet Uyên Uyen Vân Van Yến Yen
""")

# Thai given names in the Royal Thai General System and common English spellings.
THAI = _names("""
    Somchai Somsak Somporn Sombat Surachai Sompong Prasert Prayut Anan Arthit Chaiwat
    Kittisak Kittipong Nattapong Nattawut Panya Prasit Sakda Sarawut Suriya Thanawat
    Thanakorn Wichai Wirat Worawut Apichat Chatchai Narong Pongsak Teerapong Weerapong
    Somsri Malee Malai Siriporn Supaporn Sunisa Suda Kanya Kannika Kanokwan Nittaya
    Pornthip Rattana Sasithorn Siriwan Wanida Wipawee Araya Chanida Jiraporn Kamonwan
    Naruemon Nattaya Pimchanok Ploy Praew Thidarat Waraporn Yupin Ratchanee Patcharee
""")

# Names that are also everyday words, months, weekdays, places, brands or products in the
# languages the filter reads, or mostly family names: as a cue they would find more
# things than people ("Will Power", "Chase Bank", "Victoria Station", "Mercedes Benz").
COMMON_WORDS = _names("""
    May June April August Will Mark Bill Grace Hope Faith Joy Amber Ruby Jade Summer Dawn Sky
    Chase Hunter Mason Page Lane Dean Guy Pat Sue Victoria Georgia Jordan Paris Florence
    Sydney Austin Carolina Angel Nova Eden Art Bud Rich Sandy Penny Holly Ivy Heather Crystal
    Destiny Harmony Honey Misty Brook River Rain Storm Star Sunny Ray Don Van Wade Cliff
    Madison Chelsea Savannah Brooklyn Dakota Orlando Adelaide Phoenix Siena Alexandria
    Santiago Mercedes Luz Paz Dolores Cruz Sol Trinidad Asunción Concepción Guadalupe Reyes
    Pilar Soledad Rosario Marine France Lorraine Glória Vitória Lada Mir Dev Om Ram Can Or
    Chai Mai Long Son Nam Tri My Ly Hong Lam Chi Blessing Precious Princess Gift Mercy
    Alexa Siri Emmy Cooper Carter Parker Harper Nur Nor Sri Sari Ama Mega Ambre Flor An Per
    Odd Tea Ion Ton Tor Rim Yen Roi Rok Ma. Virginia Hà Tone Octave
""")

GIVEN_NAMES: frozenset[str] = (
    ENGLISH
    | ENGLISH_ELSEWHERE
    | GERMAN
    | FRENCH
    | SPANISH
    | PORTUGUESE
    | ITALIAN
    | DUTCH
    | NORDIC
    | FINNISH
    | POLISH
    | CZECH_SLOVAK
    | HUNGARIAN
    | ROMANIAN
    | BALTIC
    | SOUTH_SLAVIC
    | GREEK
    | CYRILLIC
    | CYRILLIC_LATIN
    | TURKISH
    | ARABIC
    | PERSIAN
    | HEBREW
    | INDIAN
    | MALAY_INDONESIAN
    | FILIPINO
    | EAST_AFRICAN
    | WEST_AFRICAN
    | SOUTHERN_AFRICAN
    | VIETNAMESE
    | THAI
) - COMMON_WORDS

# Capitalised words that follow a given name in ordinary text without being a family name:
# places and buildings ("Victoria Island", "Jordan River", "Mark Twain Street"),
# organisations and products ("Otto Group", "Claude Code", "Adam Optimizer"), events and
# awards ("Ada Lovelace Day", "Grace Hopper Award"), dates, greetings and the function words
# of a sentence or a heading in title case.
NOT_FAMILY = _names("""
    street st road rd avenue ave lane drive boulevard way place square court terrace close
    crescent highway row mews walk island islands isle river lake lakes mountain mountains
    springs creek rock rocks water waters vale plains gorge sound highland highlands heights
    ridge point cove cape peak glen serra sierra cerro monte puerto porto playa praia lago
    isla ilha vista arbor
    mount hill hills park valley bay beach coast falls forest gardens garden bridge station
    airport harbour harbor port canal city town county district province state region
    north south east west central upper lower great little new old saint san santa
    university college school academy institute hospital clinic centre center church
    cathedral chapel temple mosque synagogue museum gallery library hall hotel restaurant
    cafe bar pub theatre theater stadium arena tower towers building house home
    bank group inc ltd llc gmbh ag sa plc corp co company companies foundation trust fund
    society association club team teams project projects cluster service services server
    servers release releases day days night nights week weeks month months year years
    morning evening afternoon today tomorrow yesterday award awards prize prizes medal
    trophy cup fellowship scholarship lecture memorial festival show conference summit
    optimizer optimiser framework engine library studio code desktop mobile cloud pro plus
    max ultra mini air edition version update patch sprint beta alpha preview build sonnet
    opus haiku assistant bot model models app apps browser player editor reader viewer
    manager console launcher kit toolkit sdk plugin extension theme template protocol style
    sans serif mono font
    algorithm method theorem equation law effect syndrome disease index score scale series
    transform distribution principle hypothesis constant conjecture problem paradox
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december montag dienstag mittwoch
    donnerstag freitag samstag sonntag januar februar märz mai juni juli oktober dezember
    straße strasse platz weg allee gasse bahnhof brücke schule universität klinik
    krankenhaus kirche stiftung gruppe verein projekt straat plein gracht laan
    hi hello hey dear thanks thank cheers regards bye ciao hallo hej hola bonjour salut
    danke gracias merci grazie obrigado nội phòng hóa bình
    the and or but if then when while where who what why how you he she we they it this
    that these those my your his her our their its is are was were be has have had do
    does did not no yes all any some each every for from with without of in on at by to
    into over under after before about as also just here there
""")
